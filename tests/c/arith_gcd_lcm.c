/* Euclid's algorithm (recursive and iterative), lcm, extended gcd and modular inverse. */
#include <stdio.h>

static unsigned long gcd_rec(unsigned long a, unsigned long b) { return b == 0 ? a : gcd_rec(b, a % b); }

static unsigned long gcd_iter(unsigned long a, unsigned long b) {
  while (b != 0) {
    unsigned long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static long ext_gcd(long a, long b, long *x, long *y) {
  if (b == 0) { *x = 1; *y = 0; return a; }
  long x1, y1;
  long g = ext_gcd(b, a % b, &x1, &y1);
  *x = y1;
  *y = x1 - (a / b) * y1;
  return g;
}

static long mod_inverse(long a, long m) {
  long x, y;
  if (ext_gcd(a, m, &x, &y) != 1) return -1;
  return ((x % m) + m) % m;
}

int main(void) {
  unsigned long pairs[][2] = {{12, 18}, {17, 5}, {1071, 462}, {0, 9}, {9, 0},
                              {1000000007, 998244353}, {600851475143ul, 6857}, {144, 89}};
  int n = (int)(sizeof pairs / sizeof pairs[0]);
  unsigned long check = 0;
  for (int i = 0; i < n; i++) {
    unsigned long a = pairs[i][0], b = pairs[i][1];
    unsigned long g1 = gcd_rec(a, b), g2 = gcd_iter(a, b);
    unsigned long l = g1 ? a / g1 * b : 0;
    printf("gcd(%lu,%lu)=%lu/%lu lcm=%lu\n", a, b, g1, g2, l);
    check += g1 + (g1 != g2) * 1000;
  }
  long m = 1000003;
  for (long a = 2; a < 40; a += 7) {
    long inv = mod_inverse(a, m);
    printf("inv(%ld) mod %ld = %ld, check %ld\n", a, m, inv, a * inv % m);
  }
  printf("inv(6) mod 9 = %ld\n", mod_inverse(6, 9));
  /* lcm of 1..20 */
  unsigned long l = 1;
  for (unsigned long k = 1; k <= 20; k++) l = l / gcd_iter(l, k) * k;
  printf("lcm(1..20)=%lu\n", l);
  return (int)(check % 256);
}
