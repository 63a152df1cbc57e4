/* Limits from <limits.h> and <stdint.h>, and arithmetic that stays defined right at the edges. */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

static int safe_add(int a, int b, int *out) {
  if ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) return 0;
  *out = a + b;
  return 1;
}

static int safe_abs(int x, unsigned int *out) {
  *out = x < 0 ? 0u - (unsigned int)x : (unsigned int)x;
  return 1;
}

int main(void) {
  printf("CHAR_BIT %d SCHAR %d..%d UCHAR_MAX %d\n", CHAR_BIT, SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
  printf("SHRT %d..%d USHRT_MAX %d\n", SHRT_MIN, SHRT_MAX, USHRT_MAX);
  printf("INT %d..%d UINT_MAX %u\n", INT_MIN, INT_MAX, UINT_MAX);
  printf("LONG %ld..%ld ULONG_MAX %lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
  printf("LLONG %lld..%lld\n", LLONG_MIN, LLONG_MAX);
  printf("INT8 %d..%d INT16 %d..%d\n", INT8_MIN, INT8_MAX, INT16_MIN, INT16_MAX);
  printf("INT64_MAX %lld UINT64_MAX %llu\n", (long long)INT64_MAX, (unsigned long long)UINT64_MAX);
  int r = 0, ok;
  ok = safe_add(INT_MAX, 1, &r);
  printf("INT_MAX+1 ok=%d\n", ok);
  ok = safe_add(INT_MAX - 5, 5, &r);
  printf("INT_MAX-5+5 ok=%d r=%d\n", ok, r);
  ok = safe_add(INT_MIN, -1, &r);
  printf("INT_MIN-1 ok=%d\n", ok);
  unsigned int a;
  safe_abs(INT_MIN, &a);
  printf("|INT_MIN| = %u\n", a);
  safe_abs(-12345, &a);
  printf("|-12345| = %u\n", a);
  /* INT_MIN / 1 and INT_MIN % -1 is the only trap; avoid it, but test neighbours. */
  printf("INT_MIN/1 = %d, INT_MIN/2 = %d, INT_MIN%%3 = %d\n", INT_MIN / 1, INT_MIN / 2, INT_MIN % 3);
  printf("(INT_MIN+1)/-1 = %d\n", (INT_MIN + 1) / -1);
  printf("LLONG_MIN/-2 = %lld\n", LLONG_MIN / -2);
  /* Unsigned arithmetic at the edges. */
  printf("UINT_MAX+1u = %u, 0u-1u = %u\n", UINT_MAX + 1u, 0u - 1u);
  printf("ULLONG_MAX*ULLONG_MAX = %llu\n", ULLONG_MAX * ULLONG_MAX);
  /* Widening before the multiplication avoids overflow. */
  int big = 100000;
  long long prod = (long long)big * big;
  printf("prod %lld\n", prod);
  int8_t i8 = INT8_MAX;
  uint16_t u16 = UINT16_MAX;
  int32_t i32 = INT32_MIN;
  uint64_t u64 = UINT64_MAX;
  printf("%d %u %d %llu\n", i8, u16, i32, (unsigned long long)u64);
  return r % 256;
}
