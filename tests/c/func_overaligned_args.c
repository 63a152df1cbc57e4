/* func_overaligned_args.c - structs aligned to 32 and 64 bytes by value on the
 * stack, named and through '...', at four stack depths (c-torture pr92904);
 * the same code as tests/interop/oa.c and ob.c, in one file. */
#include <alloca.h>
#include <stdarg.h>
#include <stdio.h>

struct __attribute__((aligned(32))) V { double a, b, c, d; };
struct __attribute__((aligned(64))) W { long x[3]; };
struct __attribute__((aligned(32))) I { int a; char c; };

static int aligned_to(const void *p, unsigned long a) { return ((unsigned long)p & (a - 1)) == 0; }

double a_v7(long a, long b, long c, long d, long e, long f, long g, struct V v);
double a_vv(int n, ...);
long a_wv(int n, ...);

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
