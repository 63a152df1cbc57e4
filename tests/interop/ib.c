/* ib.c - the callee side of the __int128 interop test (ishapes.h). */
#include <stdarg.h>
#include "ishapes.h"

i128 b_make(long hi, unsigned long lo) { return (i128)(((u128)(unsigned long)hi << 64) | lo); }
u128 b_mul(unsigned long a, unsigned long b) { return (u128)a * b; }
i128 b_regs(i128 a, i128 b, i128 c) { return a * 3 - b + (c >> 7); }
i128 b_five(long a, long b, long c, long d, long e, i128 x, long f, i128 y) {
  return x * (a + b + c + d + e + f) - y;
}
u128 b_six(long a, long b, long c, long d, long e, long f, u128 x, double g, u128 y) {
  return (x ^ y) + (u128)(a * b * c * d * e * f) + (u128)(long)g;
}
struct wrap b_wrap(struct wrap w, i128 x) { struct wrap r = {w.v * 5 + (u128)x}; return r; }
struct mixed b_mixed(struct mixed m) { struct mixed r = {m.tag + 1, -m.v}; return r; }
i128 b_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  i128 t = 0;
  for (int i = 0; i < n; i++) {
    if (va_arg(ap, int)) t = t * 7 + va_arg(ap, i128);
    else t = t * 7 + va_arg(ap, long);
  }
  va_end(ap);
  return t;
}
i128 b_callback(i128 (*f)(i128, long, i128), i128 x) {
  i128 r = f(x, 3, -x) + a_vsum(4, 1, x, 0, -5L, 1, x << 3, 0, 9L);
  return r + a_vsum(6, 0, 1L, 0, 2L, 0, 3L, 1, x, 0, 4L, 1, (i128)1 << 100);
}
