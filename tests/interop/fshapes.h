/* fshapes.h - the floating-point aggregate shapes of the interop test
   (fa.c and fb.c; tests/test_native.py builds each with gcc and with
   pipecc and links every combination): every System V class shape of a
   struct or union with float or double members, passed, returned and read
   with va_arg by value in both directions. */
struct f1 { float a; };
struct f2 { float a, b; };
struct f3 { float a, b, c; };
struct d1 { double a; };
struct d2 { double a, b; };
struct dl { double a; long b; };            /* SSE, INTEGER */
struct ld { long a; double b; };            /* INTEGER, SSE */
struct fi { int a; float b; };              /* one INTEGER eightbyte */
struct fii { float a; int b, c; };          /* INTEGER, INTEGER */
struct nest { struct f2 p; double d; };
struct farr { float v[4]; };
union ud { double d; long l; };             /* INTEGER */
union uf { double d; float f[2]; };         /* SSE */
struct big { double a, b, c; };             /* MEMORY: more than 16 bytes */
struct cd { char c; double d; };            /* INTEGER, SSE */
struct fbit { float f; unsigned n : 3; };   /* the bit-field makes it INTEGER */
struct pk { char c; double d; } __attribute__((packed));  /* MEMORY: misaligned */
struct empty { };                           /* size 0: travels nowhere */
struct al16 { float a; } __attribute__((aligned(16)));  /* SSE, NO_CLASS: one xmm */
struct cf { char c; float f; };             /* one INTEGER eightbyte */

/* fb.c defines these; fa.c calls them. */
struct f1 b_f1(float a);
struct f2 b_f2(float a);
struct f3 b_f3(float a);
struct d1 b_d1(double a);
struct d2 b_d2(double a);
struct dl b_dl(double a, long b);
struct ld b_ld(long a, double b);
struct fi b_fi(int a, float b);
struct fii b_fii(float a, int b);
struct nest b_nest(float a);
struct farr b_farr(float a);
union ud b_ud(double a);
union uf b_uf(float a);
struct big b_big(double a);
struct cd b_cd(char c, double d);
struct fbit b_fbit(float f, unsigned n);
struct pk b_pk(char c, double d);
struct empty b_empty(int *counter);
double b_take(struct f1 a, struct f2 b, struct f3 c, struct d1 d, struct d2 e, struct dl f, struct ld g,
              struct fi h, struct fii i, struct nest j, struct farr k, union ud l, union uf m, struct big n,
              struct cd o, struct fbit p, struct pk q);
double b_many(struct d2 a, struct d2 b, struct d2 c, struct d2 d, struct d2 e, double x, struct dl f, long y,
              struct ld g, float z, struct fi h);
double b_empties(int a, struct empty e, double b, struct empty f, int c);
double b_vsum(int n, ...);
struct al16 b_al16(struct al16 a, struct cf b);
double b_twice_positive(double x);
double b_call_back(void);

/* fa.c defines these; fb.c calls them back. */
struct dl a_swap(struct ld x);
double a_take(struct f3 a, struct cd b, struct d2 c, struct d2 d, struct d2 e, struct d2 f, struct f2 g);
double a_vsum(int n, ...);
