/* ob.c - the callee side of the over-aligned argument interop test (oshapes.h). */
#include "oshapes.h"

double b_v(struct V v) { return aligned_to(&v, 32) * 1000 + v.a + v.b * 2 + v.c * 3 + v.d * 4; }

double b_v7(long a, long b, long c, long d, long e, long f, long g, struct V v) {
  return aligned_to(&v, 32) * 1000 + a + b + c + d + e + f + g * 10 + v.a - v.d;
}

long b_w(int k, struct W w, long tail) {
  return aligned_to(&w, 64) * 100000 + k * 1000 + w.x[0] + w.x[1] * 3 + w.x[2] * 7 + tail * 11;
}

long b_i(struct I x, struct I y, int z) {
  return aligned_to(&x, 32) * 1000 + aligned_to(&y, 32) * 2000 + x.a * 3 + x.c + y.a * 5 + y.c + z * 7;
}

/* n longs, a struct V, one more long */
double b_vv(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long) * (i + 1);
  struct V v = va_arg(ap, struct V);
  long tail = va_arg(ap, long);
  va_end(ap);
  return s + v.a + v.b * 2 + v.c * 3 + v.d * 4 + tail * 100;
}

/* n doubles, a struct W, an int */
long b_wv(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  struct W w = va_arg(ap, struct W);
  int tail = va_arg(ap, int);
  va_end(ap);
  return (long)s * 1000 + w.x[0] + w.x[1] * 3 + w.x[2] * 7 + tail;
}

double b_call_a(void) {
  struct V v = {1.5, -2.25, 3.0, 4.5};
  struct W w = {{5, -6, 7}};
  double r = a_v7(1, 2, 3, 4, 5, 6, 7, v);
  r += a_vv(0, v, 9L) + a_vv(3, 1L, 2L, 3L, v, 9L) + a_vv(8, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, v, 9L);
  r += a_wv(0, w, 3) + a_wv(2, 0.5, 1.5, w, 3) + a_wv(9, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, w, 3);
  return r;
}
