/* expect: 4:25: error: unsupported: alloca (a dynamic allocation in the stack frame) */
/* alloca needs a dynamic stack pointer in the frame; until then it is refused, never called as a library function. */
#include <alloca.h>
int f(int n){ char *p = alloca(n); p[0]=1; return p[0]; }
