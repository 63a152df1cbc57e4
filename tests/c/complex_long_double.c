/* complex_long_double.c - _Complex long double (issues 18 and 19): two x87
   80-bit parts in a 32-byte, 16-aligned object. Arithmetic with complex and
   real operands of every type (a real operand has no imaginary part, so
   signed zeros survive), multiply and divide through libgcc's __mulxc3 and
   __divxc3 (infinities and NaNs recovered as C99 Annex G says), unary -,
   ~ (the conjugate), creall/cimagl/conjl, __real__/__imag__ as lvalues,
   == and !=, truth tests, conversions to and from the other complex and
   real types, compound assignment both ways, ++ and --, globals, arrays,
   struct members, arguments (in memory), results (st(0) and st(1)) and
   `...` with va_arg. Finite parts are printed by their 10 bytes, NaNs and
   infinities by kind. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef _Complex long double cld;

cld g = 1.5L - 2.25iL;
cld garr[3] = {1.0L + 1.0iL, -2.0L, 3.0iL};
struct holder { char tag; cld z; short after; } gh = {'h', 0.1L + 0.2iL, 77};
static const long double inf = 1.0L / 0.0L;
static volatile long double three = 3;  /* computed at run time by both compilers */

static void part(long double v) {
  unsigned char b[10];
  memcpy(b, &v, 10);
  if (v != v || v == inf || v == -inf) return (void)printf(" %s", v != v ? "nan" : v < 0 ? "-inf" : "inf");
  printf(" ");
  for (int i = 9; i >= 0; --i) printf("%02x", b[i]);
}

static void show(const char *what, cld z) {
  printf("%-10s", what), part(__real__ z), part(__imag__ z);
  if (__real__ z == __real__ z && __imag__ z == __imag__ z) printf(" (%.6Lg, %.6Lg)", __real__ z, __imag__ z);
  printf("\n");
}

cld mul(cld a, cld b) { return a * b; }
cld dvd(cld a, cld b) { return a / b; }
cld conj_of(cld a) { return ~a; }
cld make(long double re, long double im) { return __builtin_complex(re, im); }

/* After five complex arguments (all in memory) an int and a double still
   travel in registers. */
cld weigh(cld a, cld b, cld c, cld d, cld e, int k, double w) { return (a + b - c) * k + d * w - e; }
cld vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  cld t = 0;
  for (int i = 0; i < n; ++i) {
    cld z = va_arg(ap, cld);
    t = t * 2 + z * va_arg(ap, int);
  }
  va_end(ap);
  return t;
}
struct holder pass_holder(struct holder h) { h.z *= 2; h.after++; return h; }

int main(void) {
  cld a = 3.0L + 4.0iL, b = -1.0L + 0.5iL;
  long double third = 1.0L / three;
  show("add", a + b); show("sub", a - b); show("mul", a * b);
  show("div", a / b); show("mul3", mul(a, third + third * 1.0iL)); show("div3", dvd(a, third - 2.0iL));
  show("neg", -a); show("conj~", ~a); show("conjl", conjl(b)); show("conjfn", conj_of(make(third, -third)));
  printf("creall %Lg cimagl %Lg\n", creall(a), cimagl(a));
  /* real operands: no imaginary part */
  cld pz = 0.0L + 0.0iL, nz = -pz, c = a;
  show("r+z", 0.0L + nz); show("z-r", nz - 0.0L); show("r-z", 0.0L - pz);
  show("r*z", 2.0L * a); show("z*d", a * 0.5); show("z/r", a / 4.0L);
  show("r/z", 1.0L / a); show("i*z", a * 2); show("z+f", a + 1.5f);
  /* Annex G: a product or quotient with an infinite part is infinite */
  cld big = inf + 1.0iL, nanny = make(__builtin_nanl(""), __builtin_nanl(""));
  show("inf*z", big * a); show("inf*nan", mul(big, make(__builtin_nanl(""), 2.0L)));
  show("z/0", dvd(a, 0.0L)); show("z/inf", dvd(a, big)); show("nan*z", mul(nanny, a));
  /* comparisons and truth */
  printf("eq %d %d ne %d %d", a == c, a == b, a != c, a != b);
  printf(" eqr %d %d nan ne %d eq %d\n", make(2.0L, 0.0L) == 2.0L, make(2.0L, -0.0L) == 2, nanny != nanny,
         nanny == nanny);
  printf("truth %d %d %d %d\n", !pz, !!a, pz ? 1 : 2, (_Bool)make(0.0L, -1.0L));
  if (a && !pz && (nz || 1)) printf("and ok\n");
  /* conversions */
  _Complex double cd = a * third;
  _Complex float cf = a / 3;
  _Complex int ci = a * 1.75L;
  cld from_d = cd, from_f = cf, from_i = ci;
  long double re = a;
  double dre = b, ire = (int)(a * 2.5L);
  printf("cd %.17g %.17g cf %.9g %.9g ci %d %d\n", __real__ cd, __imag__ cd, __real__ cf, __imag__ cf, __real__ ci,
         __imag__ ci);
  show("from_d", from_d); show("from_f", from_f); show("from_i", from_i);
  printf("re %Lg dre %g ire %g\n", re, dre, ire);
  show("real", (cld)third); show("imaglit", third * 1.0iL);
  /* __real__ and __imag__ as lvalues */
  cld w;
  __real__ w = 5.0L, __imag__ w = 6.0L, __imag__ w += __real__ w;
  long double *pi = &__imag__ w;
  *pi *= 2;
  show("lvalues", w);
  printf("real-of-real %Lg imag-of-real %Lg\n", __real__ third, __imag__ third);
  /* compound assignment, ++ and -- */
  cld s = 1.0L + 1.0iL, inc = 1.0L - 1.0iL;
  s += a, s -= 0.5L, s *= b, s /= make(2.0L, 1.0L);
  show("compound", s);
  long double r = 10.0L;
  double rd = 1.0;
  _Complex double sd = 1.0 + 2.0i;
  r += a, r *= make(0.5L, 3.0L), rd -= a * 2, sd *= a;
  printf("real-lhs %Lg %g cd-lhs %.17g %.17g\n", r, rd, __real__ sd, __imag__ sd);
  show("post++", inc++); show("pre++", ++inc); show("post--", inc--); show("after", inc);
  /* globals, arrays, struct members, arguments, results, `...` */
  g *= garr[0], garr[2] += g;
  show("g", g);
  for (int i = 0; i < 3; ++i) show("garr", garr[i]);
  struct holder h2 = pass_holder(gh);
  printf("holder %c %d ", h2.tag, h2.after), show("", h2.z);
  show("weigh", weigh(a, b, g, garr[0], make(third, third), 3, 0.25));
  show("vsum", vsum(3, a, 2, b, -1, make(third, 1.0L), 5));
  printf("size %zu align %zu\n", sizeof(cld), _Alignof(cld));
  return 0;
}
