/* Floating point edge cases: NaN, infinities and -0.0 through comparisons
   (every ordered and unordered outcome), truth tests (NaN is true, -0.0
   false), the math.h classification macros (isnan isinf isfinite isnormal
   signbit fpclassify), copysign and fabs, arithmetic that makes NaN and
   infinity, and division by signed zeros. */
#include <math.h>
#include <stdio.h>

static volatile double volatile_zero = 0.0;  /* NaNs made at run time: SSE's -nan */

static void compare(const char *name, double a, double b) {
  printf("%-10s == %d != %d < %d <= %d > %d >= %d unord %d isless %d\n", name, a == b, a != b, a < b, a <= b,
         a > b, a >= b, isunordered(a, b), isless(a, b));
}

static const char *kind(double x) {
  switch (fpclassify(x)) {
    case FP_NAN: return "nan";
    case FP_INFINITE: return "inf";
    case FP_ZERO: return "zero";
    case FP_SUBNORMAL: return "subnormal";
    case FP_NORMAL: return "normal";
  }
  return "?";
}

int main(void) {
  double zero = volatile_zero, inf = 1.0 / zero, nan = zero / zero, nzero = -zero;
  compare("nan,nan", nan, nan);
  compare("nan,1", nan, 1.0);
  compare("0,-0", zero, nzero);
  compare("inf,inf", inf, inf);
  compare("-inf,inf", -inf, inf);
  compare("1,2", 1.0, 2.0);
  int truths = 0;
  if (nan) truths |= 1;
  if (nzero) truths |= 2;
  if (!nan) truths |= 4;
  if (!nzero) truths |= 8;
  truths |= (nan && inf) << 4;
  truths |= (nzero || zero) << 5;
  double quarter = 0.25;
  _Bool b1 = nan, b2 = nzero, b3 = quarter;
  printf("truths %#x bools %d %d %d ternary %d\n", truths, b1, b2, b3, nan ? 7 : 9);
  double xs[] = {nan, -nan, inf, -inf, zero, nzero, 1.0, -2.5, 1e-310, 2.2250738585072014e-308};
  for (int i = 0; i < 10; i++) {
    double x = xs[i];
    printf("%-6g isnan %d isinf %d isfinite %d isnormal %d signbit %d %s fabs %g copysign %g\n", x, isnan(x) != 0,
           isinf(x), isfinite(x) != 0, isnormal(x) != 0, signbit(x) != 0, kind(x), fabs(x), copysign(3.0, x));
  }
  float fn = (float)nan, fi = (float)-inf;
  printf("float: %d %d %d %d %g %g\n", isnan(fn) != 0, isinf(fi), signbit(fi) != 0, isinf(-fi), fn, fi);
  printf("1/-0 %g, -0*-1 %g, 0-0 %g, -0+0 %g, -0-0 %g\n", 1 / nzero, nzero * -1, zero - zero, nzero + zero, nzero - zero);
  printf("inf-inf %g, inf*0 %g, nan+1 %g, sqrt(-1) %g, -(0.0) %g\n", inf - inf, inf * 0, nan + 1, sqrt(-1.0), -zero);
  printf("%g %g %g\n", HUGE_VAL, -HUGE_VALF, INFINITY);
  int nan_is_nan = NAN != NAN;
  return truths + nan_is_nan;
}
