/* expect: 4:25: error: unsupported: __builtin_alloca_with_align to more than 128 bits */
/* alloca's blocks are 16-byte aligned (the stack's alignment); a larger alignment is refused, never ignored. */
#include <alloca.h>
int f(int n){ char *p = __builtin_alloca_with_align(n, 256); p[0]=1; return p[0]; }
