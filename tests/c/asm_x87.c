/* Inline assembly with x87 stack operands (gcc's "t" = st(0), "u" =
   st(1), digits tied to them; glibc's old <bits/mathinline.h> style, and
   c-torture 990413-2): fsqrt on long double, double and float values, fpatan
   popping its st(1) input (clobbered), fsincos leaving two outputs, fscale
   leaving its st(1) input for the compiler to pop, fyl2x, and a loop
   around one. The x87 instructions compute the same bits under gcc and
   pipecc, so every digit is printed. */
#include <stdio.h>

static long double sqrt_ld(long double x) {
  long double r;
  __asm__("fsqrt" : "=t"(r) : "0"(x));
  return r;
}

static double sqrt_d(double x) {
  double r;
  __asm__("fsqrt" : "=t"(r) : "0"(x));
  return r;
}

static float sqrt_f(float x) {
  float r;
  __asm__("fsqrt" : "=t"(r) : "0"(x));
  return r;
}

static long double atan2_ld(long double y, long double x) {
  long double r;
  __asm__ __volatile__("fpatan\n\t" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
  return r;
}

static void sincos_d(double x, double *s, double *c) {
  double sine, cosine;
  __asm__("fsincos" : "=t"(cosine), "=u"(sine) : "0"(x));
  *s = sine;
  *c = cosine;
}

static double scale(double x, double n) {
  double r;
  __asm__("fscale" : "=t"(r) : "0"(x), "u"(n));
  return r;
}

static long double log2_times(long double y, long double x) {
  long double r;
  __asm__("fyl2x" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
  return r;
}

int main(void) {
  volatile float root5 = sqrt_f(5.0f); /* rounded to float: clang -O2 keeps st(0)'s digits */
  printf("%.21Lg %.17g %.9g\n", sqrt_ld(2.0L), sqrt_d(3.0), (double)root5);
  printf("%.21Lg %.21Lg\n", atan2_ld(1.0L, 1.0L), atan2_ld(-2.0L, 0.5L));
  double s, c;
  sincos_d(0.5, &s, &c);
  printf("%.17g %.17g\n", s, c);
  printf("%.17g %.17g\n", scale(3.0, 4.0), scale(-1.5, -2.0));
  printf("%.21Lg\n", log2_times(3.0L, 8.0L));
  long double sum = 0;
  int i;
  for (i = 1; i <= 20; i++) sum += sqrt_ld(i) + atan2_ld(i, 20 - i);
  printf("%.21Lg\n", sum);
  return (int)sum % 256;
}
