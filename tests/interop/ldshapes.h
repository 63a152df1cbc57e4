/* ldshapes.h - the long double interop test (issue 18): lda.c and ldb.c,
   each built by gcc or by pipecc, call each other with long double
   arguments (in memory, 16-aligned, among integer and double ones in
   registers), long double results (st(0)), structs holding long doubles
   (a lone one: X87 class, returned in st(0); mixed: MEMORY), and long
   doubles through `...` read with va_arg; and _Complex long double
   (COMPLEX_X87, issue 19): arguments in memory among others in registers,
   results in st(0) (the real part) and st(1) (the imaginary part), through
   `...`, and libgcc's __mulxc3 and __divxc3 on either side. */
#include <stdarg.h>

struct ld1 { long double v; };
struct ldmix { int id; long double v; double d; };
typedef _Complex long double cld;

long double b_mix(int a, long double x, double d, long double y, long i, long double z, int j, int k, int l, int m);
struct ld1 b_one(struct ld1 a, long double s);
struct ldmix b_mixed(struct ldmix a, struct ld1 b, int scale);
long double b_vsum(int n, ...);
long double b_call_back(long double x);
cld b_cmul(cld a, int k, cld b, double d);
cld b_cvsum(int n, ...);
cld b_ccall_back(cld z);

long double a_twice(long double x);
long double a_vsum(int n, ...);
struct ld1 a_one(long double x, struct ldmix m);
cld a_cscale(cld z, long double s, int k);
cld a_cvsum(int n, ...);
