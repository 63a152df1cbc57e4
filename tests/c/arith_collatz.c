/* Collatz sequences: longest chain below a bound, with unsigned 64-bit values. */
#include <stdio.h>

static int collatz_length(unsigned long long n) {
  int steps = 1;
  while (n != 1) {
    if (n % 2 == 0)
      n /= 2;
    else
      n = 3 * n + 1;
    steps++;
  }
  return steps;
}

static unsigned long long collatz_peak(unsigned long long n) {
  unsigned long long peak = n;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    if (n > peak) peak = n;
  }
  return peak;
}

int main(void) {
  int best = 0;
  unsigned long long best_n = 0;
  for (unsigned long long n = 1; n < 3000; n++) {
    int len = collatz_length(n);
    if (len > best) {
      best = len;
      best_n = n;
    }
  }
  printf("longest below 3000: %llu with %d steps\n", best_n, best);
  unsigned long long tests[] = {27, 97, 871, 6171, 77031, 837799};
  for (int i = 0; i < 6; i++)
    printf("%llu: length %d peak %llu\n", tests[i], collatz_length(tests[i]),
           collatz_peak(tests[i]));
  /* Print a short sequence. */
  unsigned long long n = 7;
  while (n != 1) {
    printf("%llu ", n);
    n = n % 2 ? 3 * n + 1 : n / 2;
  }
  printf("1\n");
  return best % 256;
}
