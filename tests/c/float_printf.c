/* Floating point through printf: every floating conversion (%f %F %e %E
   %g %G %a %A) with widths, precisions and the flags - + space # 0, on
   ordinary numbers, halfway cases, tiny and huge magnitudes, -0.0,
   infinities and NaN, through printf, sprintf and snprintf. */
#include <stdio.h>

static const double values[] = {0.0, -0.0, 1.0, -1.5, 0.1, 2.5, 3.5, 123456.789, 1e-5, 6.02214076e23,
                                1.7976931348623157e308, 4.9406564584124654e-324, 2.2250738585072014e-308,
                                0.000123456, 999999.5, 1e21};

static volatile double volatile_zero = 0.0;  /* NaNs made at run time: SSE's -nan with every compiler */

int main(void) {
  int n = (int)(sizeof values / sizeof values[0]);
  for (int i = 0; i < n; i++) {
    double v = values[i];
    printf("[%f] [%.0f] [%.3f] [%12.4f] [%-12.2f] [%+f] [% f] [%012.3f] [%#.0f]\n", v, v, v, v, v, v, v, v, v);
    printf("[%e] [%.0e] [%.3E] [%15.6e] [%+.2e]\n", v, v, v, v, v);
    printf("[%g] [%.0g] [%.10g] [%#g] [%G] [%-10g|] [%010g]\n", v, v, v, v, v, v, v);
    printf("[%a] [%A] [%.2a] [%.0a]\n", v, v, v, v);
  }
  double zero = volatile_zero, inf = 1.0 / zero, nan = zero / zero;
  printf("[%f] [%F] [%e] [%g] [%a] [%10f] [%-10f|] [%+f]\n", inf, inf, -inf, inf, -inf, inf, -inf, inf);
  printf("[%f] [%F] [%e] [%G] [%5f]\n", nan, nan, -nan, nan, nan);
  float f = 1.0f / 3.0f;
  printf("float %f %.9g %a %e\n", f, f, f, f);
  char buf[64];
  int len = sprintf(buf, "%.4f|%g", 3.14159265, 1e-10);
  printf("sprintf %d \"%s\"\n", len, buf);
  len = snprintf(buf, 8, "%f", 2.0 / 3.0);
  printf("snprintf %d \"%s\"\n", len, buf);
  printf("%5.1f%% done, %*.*f\n", 99.94, 8, 2, 3.14159);
  return len;
}
