/* Fibonacci numbers: iterative with 64-bit wrap-around, recursive with memoization, and mod m. */
#include <stdio.h>

static unsigned long long memo[94];

static unsigned long long fib_memo(int n) {
  if (n < 2) return (unsigned long long)n;
  if (memo[n]) return memo[n];
  return memo[n] = fib_memo(n - 1) + fib_memo(n - 2);
}

static unsigned long long fib_iter(int n) {
  unsigned long long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    unsigned long long t = a + b;
    a = b;
    b = t;
  }
  return a;
}

static int fib_naive(int n) { return n < 2 ? n : fib_naive(n - 1) + fib_naive(n - 2); }

/* Pisano period of m: the period of Fibonacci numbers mod m. */
static int pisano(int m) {
  int a = 0, b = 1;
  for (int i = 0; i < m * m; i++) {
    int t = (a + b) % m;
    a = b;
    b = t;
    if (a == 0 && b == 1) return i + 1;
  }
  return -1;
}

int main(void) {
  for (int n = 0; n <= 93; n += 7) printf("fib(%d) = %llu\n", n, fib_memo(n));
  int bad = 0;
  for (int n = 0; n <= 93; n++)
    if (fib_iter(n) != fib_memo(n)) bad++;
  printf("fib(200) mod 2^64 = %llu\n", fib_iter(200));
  printf("fib_naive(20) = %d\n", fib_naive(20));
  for (int m = 2; m <= 10; m++) printf("pisano(%d) = %d\n", m, pisano(m));
  printf("bad = %d\n", bad);
  return (int)(fib_memo(50) % 256) + bad;
}
