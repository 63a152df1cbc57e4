/* cshapes.h - the shapes of the _Complex interop test (ca.c, cb.c): complex
   float (one SSE eightbyte: both floats in xmm0's low 8 bytes), complex
   double (two SSE eightbytes), complex integers (INTEGER), complex members
   of structs sharing eightbytes with other members, a struct too large for
   registers, enough arguments to spill to the stack, and `...`. */
typedef _Complex float cf;
typedef _Complex double cd;

struct scf { cf z; };                 /* s */
struct scd { cd z; };                 /* ss */
struct mix { float a; cf z; };        /* ss: a and re share eightbyte 0 */
struct dcf { double d; cf z; };       /* ss */
struct ci { _Complex int z; int k; }; /* ii */
struct big { cd a, b; };              /* memory */

cf b_mulf(cf a, cf b);
cd b_divd(cd a, cd b);
cd b_many(cd a, cf b, double x, cd c, cd d, cd e, cf f, int k, cd g);
struct scd b_wrap(cd z, struct scf f);
struct mix b_mix(struct mix m, struct dcf d);
struct ci b_ci(_Complex int a, _Complex short s, _Complex char c, _Complex long l, struct ci x);
struct big b_big(struct big x, cd y);
double b_vsum(int n, ...);
cd b_call_back(void);

/* defined by ca.c, called back by cb.c */
cd a_scale(cd z, double k, cf w);
struct mix a_mix(struct mix m);
double a_vsum(int n, ...);
