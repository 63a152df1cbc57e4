/* vshapes.h - the GNU C vector interop test (va.c calls vb.c and back):
   vectors as gcc passes them on x86-64 without -mavx. An 8-byte vector is
   one SSE eightbyte (an xmm register's low half), alone, in a struct, two in
   a 16-byte struct (two xmm registers), past the eight xmm argument
   registers (the stack), through `...` and va_arg; a 4-byte vector of
   chars or shorts is INTEGER (a general register); a 32-byte vector is
   MEMORY (the stack, 32-aligned, and a hidden result pointer). A 16-byte
   vector is SSE, SSEUP: one xmm register, in every position xmm0-xmm7
   among doubles, on the stack (16-aligned) past the eighth, as the result
   (xmm0), alone and as a struct's only member, through `...` and va_arg
   (the register save area's 16-byte xmm slots, then the overflow area). */
typedef int v2si __attribute__((vector_size(8)));
typedef float v2sf __attribute__((vector_size(8)));
typedef short v4hi __attribute__((vector_size(8)));
typedef unsigned char v4qu __attribute__((vector_size(4)));
typedef short v2hi __attribute__((vector_size(4)));
typedef int v8si __attribute__((vector_size(32)));
typedef double v4df __attribute__((vector_size(32)));
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));

struct pair8 { v2si a; v2sf b; };
struct one8 { v4hi h; };
struct mixed8 { v2si v; long tag; };
struct wrap16 { v4sf v; };

v2si b_add(v2si x, v2si y);
v2sf b_scale(v2sf x, float k, v4hi h);
v4qu b_bytes(v4qu a, v2hi b, int n);
v8si b_wide(v8si a, int k, v8si b);
v4df b_wided(double d, v4df a);
struct pair8 b_pair(struct pair8 p, v2si extra);
struct one8 b_one(struct one8 o);
struct mixed8 b_mixed(struct mixed8 m);
v2si b_many(v2si a, v2si b, v2si c, v2si d, v2si e, v2si f, v2si g, v2si h, v2si i, v2si j);
long b_vsum(int n, ...);
v2si b_callback(v2si (*f)(v2si, v8si), v2si x);

v4si b_add16(v4si x, v4si y);
v2df b_mix16(double d0, v4si a, double d1, v4sf b, float f, v2df c, double d2, v8hi h);
v4si b_many16(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, v4si h, v4si i, v4si j);
v2df b_after8(double a, double b, double c, double d, double e, double f, double g, double h, v2df v, int k,
              v4si w);
struct wrap16 b_wrap16(struct wrap16 w, long k, struct wrap16 u);
long b_vsum16(int n, ...);
v4si b_callback16(v4si (*f)(v4si, double, v4sf), v4si x);

v2si a_back(v2si a, v8si w);
long a_vsum(int n, ...);
v4si a_back16(v4si a, double d, v4sf b);
long a_vsum16(int n, ...);
