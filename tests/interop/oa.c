/* oa.c - the caller side of the over-aligned argument interop test
 * (oshapes.h): every call runs at four stack depths 16 bytes apart, so a
 * caller that leaves rsp only 16-byte aligned misplaces an argument in at
 * least one of them, and the callee's alignment checks show it. */
#include <alloca.h>
#include "oshapes.h"

double a_v7(long a, long b, long c, long d, long e, long f, long g, struct V v) {
  return aligned_to(&v, 32) * 1000 + a + b + c + d + e + f + g * 10 + v.a - v.d;
}

double a_vv(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long) * (i + 1);
  struct V v = va_arg(ap, struct V);
  long tail = va_arg(ap, long);
  va_end(ap);
  return s + v.a + v.b * 2 + v.c * 3 + v.d * 4 + tail * 100;
}

long a_wv(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  struct W w = va_arg(ap, struct W);
  int tail = va_arg(ap, int);
  va_end(ap);
  return (long)s * 1000 + w.x[0] + w.x[1] * 3 + w.x[2] * 7 + tail;
}

static void calls(int depth) {
  struct V v = {1.25, 2.75, -3.5, -2.0};
  struct W w = {{10, 20, 30}};
  struct I x = {7, 'x'}, y = {-9, 'y'};
  printf("depth %d\n", depth);
  printf("b_v %g\n", b_v(v));
  printf("b_v7 %g\n", b_v7(1, 2, 3, 4, 5, 6, 7, v));
  printf("b_w %ld %ld\n", b_w(1, w, 5), b_w(2, w, -5));
  printf("b_i %ld\n", b_i(x, y, 3));
  printf("b_vv %g %g %g %g\n", b_vv(0, v, 1L), b_vv(1, 4L, v, 2L), b_vv(5, 1L, 2L, 3L, 4L, 5L, v, 3L),
         b_vv(9, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, v, 4L));
  printf("b_wv %ld %ld %ld\n", b_wv(0, w, 1), b_wv(1, 0.5, w, 2),
         b_wv(9, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, w, 3));
  printf("b_call_a %g\n", b_call_a());
}

static void at_depth(int k) {
  volatile char *pad = alloca(16 * k + 1);
  pad[0] = 0;
  calls(k);
}

int main(void) {
  for (int k = 0; k < 4; k++) at_depth(k);
  return 0;
}
