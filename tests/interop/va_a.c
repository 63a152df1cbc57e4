/* va_a.c - the caller side of the variadic interop test (see va_b.c). */
#include <stdarg.h>
#include <stdio.h>

long b_vsum(int n, ...);
long b_twice(int n, ...);
int b_printf(const char *kinds, ...);
int b_vprintf(const char *fmt, ...);
long b_call_a_vmax(void);

long a_vmax(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long best = va_arg(ap, long);
  for (int i = 1; i < n; i++) {
    long x = va_arg(ap, long);
    if (x > best) best = x;
  }
  va_end(ap);
  return best;
}

int main(void) {
  printf("vsum: %ld %ld %ld\n", b_vsum(0), b_vsum(3, 1L, 2L, 3L),
         b_vsum(10, 1L, -2L, 3L, -4L, 5L, -6L, 7L, -8L, 9L, 1L << 40));
  printf("twice: %ld %ld\n", b_twice(2, 4, 5), b_twice(8, 1, 2, 3, 4, 5, 6, 7, -8));
  long cell = 77;
  int n = b_printf("ilspilsp", -1, 1L << 33, "str", &cell, 2147483647, -(1L << 62), "two", &cell);
  printf("printed %d\n", n);
  n = b_vprintf("%d %ld %s %c %u %lx %d %d %d\n", -42, 123456789012L, "forwarded", 'z', 4000000000u,
                0xfeedL, 1, 2, 3);
  printf("vprintf %d\n", n);
  printf("a_vmax: %ld %ld\n", a_vmax(3, 1L, 5L, 2L), b_call_a_vmax());
  return 0;
}
