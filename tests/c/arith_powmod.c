/* Modular exponentiation and a Miller-Rabin primality test with unsigned 64-bit arithmetic. */
#include <stdio.h>

typedef unsigned long long u64;

static u64 mulmod(u64 a, u64 b, u64 m) {
  /* Double-and-add keeps every intermediate below 2m < 2^64 for m < 2^63. */
  u64 r = 0;
  a %= m;
  while (b) {
    if (b & 1) {
      r += a;
      if (r >= m) r -= m;
    }
    a += a;
    if (a >= m) a -= m;
    b >>= 1;
  }
  return r;
}

static u64 powmod(u64 base, u64 exp, u64 m) {
  u64 r = 1 % m;
  base %= m;
  while (exp) {
    if (exp & 1) r = mulmod(r, base, m);
    base = mulmod(base, base, m);
    exp >>= 1;
  }
  return r;
}

static int is_prime(u64 n) {
  static const u64 bases[] = {2, 3, 5, 7, 11, 13, 17};
  if (n < 2) return 0;
  for (int i = 0; i < 7; i++)
    if (n % bases[i] == 0) return n == bases[i];
  u64 d = n - 1;
  int s = 0;
  while ((d & 1) == 0) { d >>= 1; s++; }
  for (int i = 0; i < 7; i++) {
    u64 x = powmod(bases[i], d, n);
    if (x == 1 || x == n - 1) continue;
    int composite = 1;
    for (int r = 1; r < s && composite; r++) {
      x = mulmod(x, x, n);
      if (x == n - 1) composite = 0;
    }
    if (composite) return 0;
  }
  return 1;
}

int main(void) {
  printf("2^10 mod 1000 = %llu\n", powmod(2, 10, 1000));
  printf("3^200 mod 1000000007 = %llu\n", powmod(3, 200, 1000000007ull));
  printf("7^(p-1) mod p = %llu\n", powmod(7, 1000000006ull, 1000000007ull));
  u64 candidates[] = {1, 2, 97, 561, 7919, 1000000007ull, 1000000011ull, 2147483647ull,
                      4294967297ull, 999999999989ull};
  int primes = 0;
  for (int i = 0; i < 10; i++) {
    int p = is_prime(candidates[i]);
    primes += p;
    printf("%llu %s\n", candidates[i], p ? "prime" : "composite");
  }
  int count = 0;
  for (u64 n = 0; n < 2000; n++) count += is_prime(n);
  printf("primes below 2000: %d\n", count);
  return primes * 10 + count % 10;
}
