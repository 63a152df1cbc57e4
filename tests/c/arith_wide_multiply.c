/* 64x64 -> 128-bit multiplication and 128/64 division built from 32-bit halves, checked
   against identities; a 128-bit value is a pair of unsigned long long. */
#include <stdio.h>

typedef unsigned long long u64;
typedef struct { u64 hi, lo; } u128;

static u128 mul64(u64 a, u64 b) {
  u64 a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  u64 p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
  u64 mid = (p0 >> 32) + (p1 & 0xFFFFFFFFu) + (p2 & 0xFFFFFFFFu);
  u128 r;
  r.lo = (mid << 32) | (p0 & 0xFFFFFFFFu);
  r.hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
  return r;
}

static u128 add128(u128 a, u128 b) {
  u128 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo);
  return r;
}

/* Divide a 128-bit value by a 64-bit divisor (hi < d), bit by bit; returns quotient, sets rem. */
static u64 div128(u128 n, u64 d, u64 *rem) {
  u64 q = 0, r = n.hi;
  for (int i = 63; i >= 0; i--) {
    int carry = (int)(r >> 63);
    r = (r << 1) | (n.lo >> i & 1);
    q <<= 1;
    if (carry || r >= d) { r -= d; q |= 1; }
  }
  *rem = r;
  return q;
}

int main(void) {
  u64 vals[] = {0, 1, 0xFFFFFFFFull, 0x100000000ull, 0xFFFFFFFFFFFFFFFFull, 0x123456789ABCDEFull,
                10000000000000000000ull};
  int n = (int)(sizeof vals / sizeof vals[0]);
  int ok = 0, checks = 0;
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++) {
      u128 p = mul64(vals[i], vals[j]);
      printf("%016llx * %016llx = %016llx%016llx\n", vals[i], vals[j], p.hi, p.lo);
      if (vals[j] != 0 && vals[i] != 0) {
        u64 r;
        u64 q = div128(p, vals[j], &r);
        checks++;
        ok += q == vals[i] && r == 0;
      }
      ok += p.lo == vals[i] * vals[j]; /* the low half is the wrapped product */
      checks++;
    }
  u128 max = mul64(~0ull, ~0ull);
  u128 sum = add128(max, mul64(2, ~0ull));
  printf("(2^64-1)^2 + 2(2^64-1) = %016llx%016llx\n", sum.hi, sum.lo);
  u64 r;
  u128 big = {12345, 67890};
  u64 q = div128(big, 1000000007ull, &r);
  printf("q %llu r %llu\n", q, r);
  printf("ok %d of %d\n", ok, checks);
  return ok;
}
