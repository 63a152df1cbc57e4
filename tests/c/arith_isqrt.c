/* Integer square and cube roots by Newton's method and bisection on unsigned 64-bit values. */
#include <stdio.h>

static unsigned long long isqrt_newton(unsigned long long n) {
  if (n < 2) return n;
  unsigned long long x = n / 2, y = (x + n / x) / 2;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2;
  }
  return x;
}

static unsigned long long isqrt_bisect(unsigned long long n) {
  unsigned long long lo = 0, hi = 4294967295ull;
  while (lo < hi) {
    unsigned long long mid = lo + (hi - lo + 1) / 2;
    if (mid <= n / mid) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static unsigned int icbrt(unsigned long long n) {
  unsigned int r = 0;
  for (int bit = 21; bit >= 0; bit--) {
    unsigned long long c = r | (1u << bit);
    if (c * c * c <= n) r = (unsigned int)c;
  }
  return r;
}

int main(void) {
  unsigned long long tests[] = {0, 1, 2, 3, 4, 15, 16, 17, 99, 100, 1000000, 999999999999ull,
                                18446744073709551615ull, 12345678987654321ull};
  int mismatches = 0;
  for (int i = 0; i < 14; i++) {
    unsigned long long a = isqrt_newton(tests[i]), b = isqrt_bisect(tests[i]);
    printf("isqrt(%llu) = %llu %llu cbrt %u\n", tests[i], a, b, icbrt(tests[i]));
    if (a != b) mismatches++;
  }
  /* Perfect squares below 5000. */
  int squares = 0;
  for (unsigned long long k = 0; k < 5000; k++) {
    unsigned long long r = isqrt_newton(k);
    if (r * r == k) squares++;
  }
  printf("squares below 5000: %d mismatches %d\n", squares, mismatches);
  return squares + mismatches;
}
