/* divmod.c - division and remainder by constants and by variables: digit
   sums, base conversion, gcd. */
#include "common.h"

static unsigned digit_sum(unsigned x) {
  unsigned s = 0;
  while (x) { s += x % 10u; x /= 10u; }
  return s;
}

static int gcd(int a, int b) {
  while (b) { int t = a % b; a = b; b = t; }
  return a;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 8000000), i;
  unsigned long acc = 0;
  long sacc = 0;
  for (i = 1; i <= n; i++) {
    acc += digit_sum((unsigned)i * 2654435761u);
    sacc += (-i) / 7 + (-i) % 7 + i / 3 - i % 1000;
    if (i % 16 == 0) acc += (unsigned long)gcd((int)(i % 9973) + 1, (int)(i % 7919) + 1);
  }
  printf("divmod %lu %ld\n", acc, sacc);
  return 0;
}
