/* Overflow detection without undefined behaviour: carries from unsigned addition, checked
   signed operations done in a wider type or tested before, and saturating arithmetic at
   every width. */
#include <stdio.h>
#include <limits.h>

static int add_u32_carry(unsigned a, unsigned b, unsigned *sum) {
  *sum = a + b;
  return *sum < a;
}

static int mul_s32_checked(int a, int b, int *out) {
  long long p = (long long)a * b;
  if (p > INT_MAX || p < INT_MIN) return 0;
  *out = (int)p;
  return 1;
}

static int add_s64_checked(long long a, long long b, long long *out) {
  if ((b > 0 && a > LLONG_MAX - b) || (b < 0 && a < LLONG_MIN - b)) return 0;
  *out = a + b;
  return 1;
}

static unsigned char sat_add_u8(unsigned char a, unsigned char b) {
  unsigned s = (unsigned)a + b;
  return (unsigned char)(s > 255 ? 255 : s);
}

static signed char sat_add_s8(signed char a, signed char b) {
  int s = a + b;
  return (signed char)(s > 127 ? 127 : s < -128 ? -128 : s);
}

static short sat_sub_s16(short a, short b) {
  int d = a - b;
  return (short)(d > SHRT_MAX ? SHRT_MAX : d < SHRT_MIN ? SHRT_MIN : d);
}

int main(void) {
  unsigned s;
  int c1 = add_u32_carry(4000000000u, 500000000u, &s);
  printf("carry %d sum %u\n", c1, s);
  int c2 = add_u32_carry(1u, 2u, &s);
  printf("carry %d sum %u\n", c2, s);
  int pairs[][2] = {{46340, 46340}, {46341, 46341}, {-65536, 32768}, {-65536, 32769}, {INT_MIN, 1}, {INT_MIN, -1}};
  int ok_count = 0;
  for (int i = 0; i < 6; i++) {
    int r = 0;
    int ok = mul_s32_checked(pairs[i][0], pairs[i][1], &r);
    ok_count += ok;
    printf("%d * %d: %s %d\n", pairs[i][0], pairs[i][1], ok ? "ok" : "overflow", ok ? r : 0);
  }
  long long r64 = 0;
  printf("LLONG_MAX + 1: %d\n", add_s64_checked(LLONG_MAX, 1, &r64));
  printf("LLONG_MIN + -1: %d\n", add_s64_checked(LLONG_MIN, -1, &r64));
  int ok64 = add_s64_checked(LLONG_MAX, -1, &r64);
  printf("LLONG_MAX + -1: %d %lld\n", ok64, r64);
  printf("sat u8: %u %u %u\n", sat_add_u8(200, 55), sat_add_u8(200, 56), sat_add_u8(0, 0));
  printf("sat s8: %d %d %d\n", sat_add_s8(100, 27), sat_add_s8(100, 28), sat_add_s8(-100, -29));
  printf("sat s16: %d %d\n", sat_sub_s16(-32000, 1000), sat_sub_s16(32000, -1000));
  /* Accumulate with saturation. */
  unsigned char level = 0;
  signed char delta = 0;
  for (int i = 0; i < 30; i++) {
    level = sat_add_u8(level, (unsigned char)(i * 3));
    delta = sat_add_s8(delta, (signed char)(i % 2 ? 13 : -20));
  }
  printf("level %u delta %d\n", level, delta);
  return ok_count * 20 + c1;
}
