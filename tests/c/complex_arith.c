/* complex_arith.c - _Complex float and double (GNU C and C99): arithmetic
   with complex and real operands (C11 Annex G: a real operand has no
   imaginary part, so signed zeros survive), multiply and divide with
   infinities and NaNs (libgcc's __muldc3/__divdc3 recovery), conjugate,
   comparisons, truth tests, conversions, compound assignment, ++,
   __real__/__imag__ as lvalues, creal/cimag/conj, __builtin_complex,
   imaginary literals, globals, arrays and struct members. */
#include <stdio.h>

typedef _Complex double cd;
typedef _Complex float cf;

cd g = 1.5 - 2.25i;
cf gf[3] = {1.0f + 1.0fi, -2.0f, 3.0fi};
struct point { int tag; cd where; cf small; } gp = {7, 0.5 + 0.25i, -1.0f - 1.0fi};
static const double inf = 1.0 / 0.0;

static void show(const char* what, cd z) {
  /* the sign of a zero is part of the result */
  printf("%-10s %.17g %.17g%s%s\n", what, __real__ z, __imag__ z,
         __builtin_signbit(__real__ z) ? " -re" : "", __builtin_signbit(__imag__ z) ? " -im" : "");
}

static void showf(const char* what, cf z) { show(what, (cd)z); }

static int classify(double x) { return x != x ? 2 : (x == inf || x == -inf) ? 1 : 0; }

static void kinds(const char* what, cd z) { printf("%-10s %d %d\n", what, classify(__real__ z), classify(__imag__ z)); }

cd mul(cd a, cd b) { return a * b; }
cd dvd(cd a, cd b) { return a / b; }
cf mulf(cf a, cf b) { return a * b; }
cf dvdf(cf a, cf b) { return a / b; }

int main(void) {
  cd a = 3.0 + 4.0i, b = -1.0 + 0.5i;
  show("add", a + b);
  show("sub", a - b);
  show("mul", a * b);
  show("div", a / b);
  show("neg", -a);
  show("conj~", ~a);
  show("conj", __builtin_conj(a));
  show("real+z", 2.0 + a);
  show("z*real", a * 0.5);
  show("real*z", -2.0 * b);
  show("z/real", a / 4.0);
  show("real/z", 1.0 / a);
  show("real-z", 0.0 - (1.0 + 0.0i)); /* Annex G: imaginary part -0 */
  show("z-real", (1.0 - 0.0i) - 1.0);
  show("int*z", 3 * a);
  showf("float", gf[0] * gf[2] + gf[1]);
  showf("mixed", (cf)a * 0.5f);
  show("widen", gf[0] / (cd)gf[2]);

  /* infinities and NaNs: the recovery paths of Annex G */
  cd inf_nan = __builtin_complex(inf, 0.0 / 0.0);
  kinds("inf*1", mul(inf_nan, 1.0 + 1.0i));
  kinds("inf/2", dvd(inf_nan, 2.0 + 3.0i));
  kinds("x/0", dvd(1.0 + 1.0i, 0.0));
  kinds("x/0c", dvd(1.0 + 1.0i, __builtin_complex(0.0, 0.0)));
  kinds("1/inf", dvd(1.0 + 1.0i, __builtin_complex(inf, inf)));
  kinds("f inf", mulf(__builtin_complex((float)inf, 0.0f / 0.0f), 2.0f + 0.0fi));
  showf("f div", dvdf(1.0f + 2.0fi, 3.0f - 4.0fi));
  show("big", dvd(1e300 + 1e300i, 1e-300 + 1e300i));

  /* comparisons, truth, conversions */
  cd z = 0.0;
  printf("cmp %d %d %d %d\n", a == 3.0 + 4.0i, a != a, z == 0, b == -1.0);
  printf("truth %d %d %d %d\n", !z, !!a, z ? 1 : 2, (_Bool)(0.0 + 1e-300i));
  z = 0.0 * 1.0i;
  if (z || !a) printf("wrong\n");
  double re = a;
  int i = (int)(7.9 - 3.0i);
  cf narrowed = g;
  printf("conv %g %d %.9g %.9g\n", re, i, (double)__real__ narrowed, (double)__imag__ narrowed);

  /* compound assignment and ++ */
  cd acc = 1.0;
  for (int k = 1; k <= 4; k++) {
    acc *= 1.0 + 1.0i;
    acc += k;
    acc -= 0.5i;
    acc /= 2.0;
  }
  show("acc", acc);
  double d = 10.0;
  d += a; /* the real part */
  d *= 1.0 + 5.0i;
  printf("real lhs %g\n", d);
  cd p = 2.0 + 2.0i;
  p++;
  ++p;
  show("inc", p);
  show("post", p--);
  show("after", p);

  /* parts as lvalues, arrays and members */
  cd arr[4];
  for (int k = 0; k < 4; k++) {
    __real__ arr[k] = k;
    __imag__ arr[k] = -k;
  }
  double* ip = &__imag__ arr[3];
  *ip = 42.0;
  cd sum = 0;
  for (int k = 0; k < 4; k++) sum += arr[k] * arr[k];
  show("sum", sum);
  gp.where *= gp.small;
  gp.small = ~gp.small;
  show("member", gp.where);
  showf("member2", gp.small);
  printf("parts %g %g %g %g\n", __real__ g, __imag__ g, __builtin_creal(g), __builtin_cimag(-g));
  printf("real of real %g %g\n", __real__ re, __imag__ re);
  return 0;
}
