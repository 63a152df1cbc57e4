/* Loads folded into their user as a memory operand (son-lower-x64's
   *-load rules: addsd x, [p], add r, [p], imul r, [p], sqrtsd [p],
   cvtsi2sd [p]) must read the memory before anything that may overwrite
   it: each function reads through a pointer that a later store or call
   may write (the arguments alias), then uses the value. The status is
   the low bits of a checksum. */
#include <math.h>
#include <stdio.h>

static double g_d = 1.5;
static long g_l = 40;

static void bump(void) { g_d += 10.0; g_l += 100; }

__attribute__((noinline)) static double add_before_store(double *p, double *q, double x) {
  double a = *p;
  *q = 7.0;
  return x + a;
}
__attribute__((noinline)) static long mul_before_store(long *p, long *q, long x) {
  long a = *p;
  *q = 3;
  return a * x;
}
__attribute__((noinline)) static int sub_swap(int *p, int *q) {
  int a = *p, b = *q;
  *p = b;
  *q = a;
  return b - *q;
}
__attribute__((noinline)) static double add_before_call(double x) {
  double a = g_d;
  bump();
  return x + a + g_d;
}
__attribute__((noinline)) static long xor_before_call(long x) {
  long a = g_l;
  bump();
  return (x ^ a) + g_l;
}
__attribute__((noinline)) static double prefix_sums(double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += p[i];
    p[i] = s;
  }
  return s;
}
__attribute__((noinline)) static double convert_and_root(double *p, int *q, int k) {
  double r = sqrt(*p) + (double)*q;
  *q = k;
  *p = 2.0;
  return r * (double)*q / (*p);
}
__attribute__((noinline)) static float float_ops(float *p, float x) {
  float a = x - p[1];
  p[1] = a;
  return a * p[0] / p[2] + p[1];
}
__attribute__((noinline)) static unsigned and_or(unsigned *p, unsigned *q, unsigned x) {
  unsigned a = (x & *p) | *q;
  *p = a;
  return a + (*p & x);
}

int main(void) {
  double d[4] = {1.25, 2.5, -3.0, 0.5};
  long l[2] = {5, 6};
  int i[2] = {11, -4};
  float f[3] = {1.5f, 2.25f, 4.0f};
  unsigned u[2] = {0xF0F0u, 0x0101u};
  double sum = 0;
  sum += add_before_store(&d[0], &d[0], 1.0);  /* aliased: reads 1.25 before the store */
  sum += add_before_store(&d[1], &d[2], 1.0);
  sum += (double)mul_before_store(&l[0], &l[0], 9);
  sum += (double)sub_swap(&i[0], &i[1]);
  sum += (double)sub_swap(&i[0], &i[0]);
  sum += add_before_call(0.25);
  sum += (double)xor_before_call(12345);
  sum += prefix_sums(d, 4);
  double root_src = 16.0;
  int conv = -3;
  sum += convert_and_root(&root_src, &conv, 8);
  sum += (double)float_ops(f, 10.0f);
  sum += (double)and_or(&u[0], &u[1], 0x3333u);
  sum += (double)and_or(&u[0], &u[0], 0x5555u);
  printf("%.6f %.6f %.6f %.6f %ld %d %d %g %g %u %u\n", sum, d[0], d[1], d[3], l[0], i[0], i[1], g_d, (double)f[1], u[0],
         u[1]);
  return (int)((long)(sum * 8) & 0x3f);
}
