/* Floating point conversions at their limits: every integer width, signed
   and unsigned, to float and double and back (truncation toward zero,
   the largest values each type holds exactly, rounding of 2^24 + 1 and
   2^53 + 1, unsigned 64-bit values above 2^63), double to float rounding
   and overflow to infinity, float to double, _Bool, and bit patterns read
   through unions. Only conversions C defines (values in range). */
#include <stdio.h>

union dbits { double d; unsigned long long u; };
union fbits { float f; unsigned u; };

static unsigned long long bits_of(double d) { union dbits x; x.d = d; return x.u; }
static unsigned fbits_of(float f) { union fbits x; x.f = f; return x.u; }

int main(void) {
  signed char sc = -128; unsigned char uc = 255; short ss = -32768; unsigned short us = 65535;
  int si = -2147483647 - 1; unsigned ui = 4294967295u;
  long sl = -9223372036854775807L - 1; unsigned long ul = 18446744073709551615ul;
  printf("%g %g %g %g %g %.10g\n", (double)sc, (double)uc, (double)ss, (double)us, (double)si, (double)ui);
  printf("%.17g %.17g %.9g %.9g\n", (double)sl, (double)ul, (float)sl, (float)ul);
  printf("%.9g %.9g %.9g\n", (float)16777217, (float)16777219, (float)ui);
  printf("%.17g %.17g\n", (double)9007199254740993LL, (double)9007199254740995ULL);
  unsigned long big = 9223372036854775809ul;
  printf("%.17g %lu\n", (double)big, (unsigned long)(double)big);
  double d = -3.99;
  printf("%d %d %u %u %ld %lu\n", (int)d, (int)-d, (unsigned)3.99, (unsigned)4294967295.0, (long)-1e18,
         (unsigned long)1.8446744073709550e19);
  printf("%d %d %d %d\n", (signed char)-128.9, (unsigned char)255.9, (short)-32768.5, (unsigned short)65535.99);
  printf("%d %u %lld\n", (int)2147483647.9, (unsigned)2147483648.0, (long long)-9223372036854775808.0);
  float f = (float)0.1;
  double back = f;
  printf("%.17g %#x %#llx\n", back, fbits_of(f), bits_of(back));
  printf("%g %g %.9g\n", (float)1e39, (float)-1e39, (float)1e-46);
  printf("%.9g %.9g\n", (float)3.4028235677973366e38, (float)1.401298464324817e-45);
  printf("%#llx %#llx %#x\n", bits_of(-0.0), bits_of(1.0 / 3), fbits_of(-0.0f));
  double half = 0.5, nothing = 0.0;
  _Bool b = half, z = nothing;
  char c = 'A';
  double from_char = c, from_bool = b;
  printf("%d %d %g %g\n", b, z, from_char, from_bool);
  int i = 7;
  i *= 2.5;
  unsigned short k = 10;
  k /= 0.3;
  printf("%d %u %g\n", i, k, 1 / 3.0f + 1 / 3.0);
  double neg = -12.0;  /* gcc's pr 20040831-1: the unsigned conversion is guarded, so only the signed one runs */
  long guarded = (neg > 10000) ? (unsigned long)neg : (long)neg;
  printf("guarded %ld\n", guarded);
  long long total = 0;
  for (int e = 0; e < 63; e += 7) total += (long long)(double)(1LL << e) + (long long)(float)((1LL << e) + 1);
  printf("%lld\n", total);
  return (int)(total % 256);
}
