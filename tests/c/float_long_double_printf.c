/* float_long_double_printf.c - printf's %L conversions (long double,
   issue 18) wherever the argument lands: after integers and doubles in
   registers, after a double that overflowed the eight xmm registers,
   after an odd number of integer words on the stack (the long double is
   16-aligned, so a padding word comes first), through snprintf and
   through vprintf's va_list, whose overflow area may start at 8 mod 16.
   At the x64 levels a long double is passed in the caller's stack words
   (System V class MEMORY), which pipe-run's printf reads there; at cfg,
   ssa and son it is the address of its copy. */
#include <stdarg.h>
#include <stdio.h>

static int say(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vprintf(format, ap);
  va_end(ap);
  return n;
}

static long double half(long double v) { return v / 2; }

int main(void) {
  long double x = 1.5L, y = -0.1L, big = 1e300L * 1e300L, third = 1.0L / 3.0L;
  double d = 2.25;
  char buf[96];
  int total = 0;
  total += printf("%Lf %d %Lg\n", x, 7, y);
  total += printf("%d %.2f %Le %d %d %d %d %d %La %d\n", 1, d, x, 2, 3, 4, 5, 6, y, 8);
  total += printf("%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %Lg %.1f\n", d, d, d, d, d, d, d, d, d + 1, big,
                  d + 2);
  total += printf("%d %d %d %d %d %d %.25Lf %d\n", 1, 2, 3, 4, 5, 6, third, 9);
  total += printf("%d %d %d %d %d %d %d %.25Lf\n", 1, 2, 3, 4, 5, 6, 7, third);
  total += printf("[%+12.4Lf|%-10.3Le|%#Lg|%LG|%LE]\n", half(y), half(x), x, big, third);
  total += snprintf(buf, sizeof buf, "[%10.3Lf|%-8Lg|%Lf]", y, x, -third);
  puts(buf);
  total += say("%d %Lf %f %Lg\n", 3, x, d, y);
  total += say("%d %d %d %d %d %d %.20Lf\n", 1, 2, 3, 4, 5, 6, third);
  total += say("%d %d %d %d %d %d %d %.20Le\n", 1, 2, 3, 4, 5, 6, 7, third);
  total += say("%Lf %Lf %Lf %Lf %Lf\n", x, y, third, -x, half(third));
  total += say("%.3Lf %.3Lf %Lg\n", big * big, -big * big, -0.0L);
  printf("total %d\n", total);
  return total % 256;
}
