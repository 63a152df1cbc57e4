/* Float-to-integer conversions of constants outside the target's range:
   undefined in C; gcc's front end folds them to the nearest bound (NaN to
   0) at every level, and c-torture 20031003-1 expects that. c2ast answers
   the same for constant operands (expressions.cpp, saturated_conversion);
   in-range constants and run-time values convert as the machine does. */
#include <stdio.h>

static int f1(void) { return (int)2147483648.0f; }
static int f2(void) { return (int)(float)2147483647; }
static int f3(void) { return (int)-1e20; }
static unsigned f4(void) { return (unsigned)-1.0; }
static unsigned f5(void) { return (unsigned)5e9; }
static short f6(void) { return (short)1e6; }
static signed char f7(void) { return (signed char)300.0; }
static long long f8(void) { return (long long)1e19; }
static unsigned long long f9(void) { return (unsigned long long)-3.5; }
static int f10(void) { return (int)__builtin_nan(""); }
static int f11(void) { return (int)-2147483648.0; }
static int f12(void) { return (int)2147483647.9; }
static unsigned char f13(void) { return (unsigned char)-0.5; }
static int f14(void) { return (int)__builtin_inff(); }
static int f15(void) { return (int)-__builtin_inf(); }

int main(void) {
  printf("%d %d %d\n", f1(), f2(), f3());
  printf("%u %u %d %d\n", f4(), f5(), f6(), f7());
  printf("%lld %llu %d\n", f8(), f9(), f10());
  printf("%d %d %u %d %d\n", f11(), f12(), f13(), f14(), f15());
  volatile double in_range = 123.75;
  printf("%d\n", (int)in_range);
  return 0;
}
