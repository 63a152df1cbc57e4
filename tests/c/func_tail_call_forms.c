/* Self tail calls in every form the optimizer turns into loops: through
   ?: (two self calls, one per arm), after stores through a pointer, several
   return statements, accumulations by + and by *, and a doubly recursive
   function whose second call is in tail position; deep enough (20,000
   levels) to show in a stack. Unsigned arithmetic wraps (no
   overflow). */
#include <stdio.h>

static unsigned collatz_steps(unsigned long n, unsigned steps) {
  if (n == 1) return steps;
  return (n & 1) ? collatz_steps(3 * n + 1, steps + 1) : collatz_steps(n / 2, steps + 1);
}

static void fill(int *a, int i, int n, int v) {
  if (i >= n) return;
  a[i] = v;
  fill(a, i + 1, n, v * 3 % 1000);
}

static int classify(int n, int acc) {
  if (n <= 0) return acc;
  if (n % 3 == 0) return classify(n - 3, acc + 1);
  if (n % 3 == 1) return classify(n - 1, acc);
  return classify(n - 2, acc + 2);
}

static unsigned fact(unsigned n) { return n < 2 ? 1 : n * fact(n - 1); }

static unsigned sum_to(unsigned n) {
  if (n == 0) return 0;
  return n + sum_to(n - 1);
}

static unsigned long pell(int n) { return n < 2 ? (unsigned long)n : 2 * pell(n - 1) + pell(n - 2); }

static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

int main(void) {
  unsigned total = 0;
  for (unsigned long n = 1; n < 3000; ++n) total += collatz_steps(n, 0);
  printf("collatz %u\n", total);
  static int a[20000];
  fill(a, 0, 20000, 7);
  long s = 0;
  for (int i = 0; i < 20000; i += 97) s += a[i];
  printf("fill %ld %d\n", s, a[19999]);
  printf("classify %d %d\n", classify(20000, 0), classify(17, 5));
  printf("fact %u %u\n", fact(10), fact(40));
  printf("sum_to %u\n", sum_to(20000));
  printf("pell %lu\n", pell(25));
  printf("gcd %d %d\n", gcd(1071, 462), gcd(17, 5));
  return 0;
}
