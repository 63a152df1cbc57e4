/* Floating point library calls: sqrt, sin, cos, tan, atan, atan2, exp,
   log, log10, pow, fabs, floor, ceil, fmod, round, trunc and their float
   forms, on ordinary, boundary and special arguments, printed with all
   their digits (%.17g, %a), plus strtod and atof parsing decimal and hex
   text with the end pointer strtod returns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  double xs[] = {0.0, -0.0, 0.5, 1.0, -1.75, 2.5, 3.5, 10.0, 1e-8, 123.456};
  for (int i = 0; i < 10; i++) {
    double x = xs[i];
    printf("x=%g sqrt %.17g sin %.17g cos %.17g tan %.17g atan %.17g\n", x, sqrt(fabs(x)), sin(x), cos(x), tan(x), atan(x));
    printf("  exp %.17g log %.17g log10 %.17g pow %.17g\n", exp(x), log(fabs(x) + 1), log10(fabs(x) + 2), pow(fabs(x), 1.5));
    printf("  floor %g ceil %g round %g trunc %g fmod %.17g atan2 %.17g\n", floor(x), ceil(x), round(x), trunc(x),
           fmod(x, 0.75), atan2(x, -1.0));
  }
  float f = 2.0f;
  printf("sqrtf %a sinf %a cosf %a expf %a logf %a powf %a\n", sqrtf(f), sinf(f), cosf(f), expf(f), logf(f), powf(f, 0.3f));
  printf("floorf %g ceilf %g fabsf %g fmodf %g roundf %g truncf %g atan2f %a tanf %a atanf %a log10f %a\n",
         floorf(-2.5f), ceilf(-2.5f), fabsf(-3.0f), fmodf(7.5f, 2.0f), roundf(-2.5f), truncf(-2.7f), atan2f(1.0f, 2.0f),
         tanf(0.5f), atanf(3.0f), log10f(1000.0f));
  printf("special: %g %g %g %g %g\n", sqrt(-0.0), log(0.0), exp(1000.0), pow(0.0, -1.0), atan2(-0.0, -1.0));
  const char *texts[] = {"3.25", "  -1e-3xyz", "0x1.8p1", "inf", "-nan", "1e400", "12abc", "nope", ".5e+2"};
  double acc = 0;
  for (int i = 0; i < 9; i++) {
    char *end;
    double v = strtod(texts[i], &end);
    printf("strtod(\"%s\") = %g, %d chars used\n", texts[i], v, (int)(end - texts[i]));
    if (isfinite(v)) acc += v;
  }
  printf("atof %g %g\n", atof("2.5e3"), atof("-0.125"));
  return (int)acc & 0xff;
}
