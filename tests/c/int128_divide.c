/* __int128 division and remainder (issue 19): gcc and c2ast both call
   libgcc's __divti3, __udivti3, __modti3 and __umodti3 (pipe-run has
   them). Signs of quotient and remainder (truncation toward zero), divisors
   wider and narrower than 64 bits, the limits, decimal printing of 128-bit
   values by repeated division, and a compound /= and %=. */
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static char *utoa128(u128 v, char *end) {
  *--end = 0;
  do {
    *--end = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  return end;
}

static void print_i128(const char *name, i128 v) {
  char buf[48];
  u128 magnitude = v < 0 ? -(u128)v : (u128)v;
  char *s = utoa128(magnitude, buf + sizeof buf);
  printf("%s %s%s\n", name, v < 0 ? "-" : "", s);
}

int main(void) {
  u128 all = ~(u128)0;
  i128 max = (i128)(all >> 1), min = -max - 1;
  print_i128("max", max);
  print_i128("min", min);
  char all_digits[48];
  printf("all %s\n", utoa128(all, all_digits + sizeof all_digits));
  i128 values[] = {1000000000000000000LL, -7, 7, max, min + 1, (i128)1 << 100, -((i128)3 << 90) + 11};
  i128 divisors[] = {3, -3, 10, (i128)1 << 64, -((i128)5 << 70), 1, -1, 0x7fffffffffffffffLL};
  unsigned long long h = 0;
  for (int i = 0; i < 7; i++) {
    for (int j = 0; j < 8; j++) {
      i128 q = values[i] / divisors[j], r = values[i] % divisors[j];
      if (q * divisors[j] + r != values[i]) printf("identity fails at %d %d\n", i, j);
      h = h * 1000003 + (unsigned long long)q + (unsigned long long)(r >> 64) * 7;
      if (j == 0 || j == 4) {
        print_i128("q", q);
        print_i128("r", r);
      }
    }
  }
  u128 x = all;
  unsigned long long digits = 0;
  while (x) {
    digits += (unsigned long long)(x % 1000);
    x /= 1000;
  }
  printf("digit groups sum %llu\n", digits);
  u128 big = all / 3;
  printf("udiv %016llx %016llx umod %llu\n", (unsigned long long)(big >> 64), (unsigned long long)big,
         (unsigned long long)(all % ((u128)1 << 64 | 12345)));
  i128 c = max;
  c /= -1000;
  c %= 999999999999LL;
  print_i128("compound", c);
  long narrow = 1000;
  narrow /= (i128)7;
  printf("narrow %ld %lld\n", narrow, (long long)(min / max));
  printf("hash %016llx\n", h);
  return (int)(h % 256);
}
