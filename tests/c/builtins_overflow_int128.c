/* __builtin_add_overflow, __builtin_sub_overflow and __builtin_mul_overflow
   with an __int128 or unsigned __int128 result and operands of at most 64
   bits (c-torture pr84169): the exact value always fits 128 bits as a two's
   complement pair, except an unsigned 64 x 64 product above 2^127, which a
   signed result cannot hold; a negative value never fits an unsigned
   result. Each case prints the overflow flag and the stored value's halves. */
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static unsigned sum;

static void show(const char *what, int overflow, u128 v) {
  unsigned long long hi = (unsigned long long)(v >> 64), lo = (unsigned long long)v;
  printf("%-10s %d %016llx %016llx\n", what, overflow, hi, lo);
  sum = sum * 31 + (unsigned)overflow + (unsigned)(hi ^ lo) + (unsigned)(lo >> 32);
}

int main(void) {
  i128 s;
  u128 u;
  unsigned long long umax = ~0ULL;
  long long smin = -9223372036854775807LL - 1, smax = 9223372036854775807LL;
  unsigned char h = 4;
  int o;
  volatile int m16 = -16;
  o = __builtin_mul_overflow((unsigned char)h, m16, &u);
  show("pr84169", o, u);
  o = __builtin_mul_overflow(umax, umax, &u);
  show("umax2 u", o, u);
  o = __builtin_mul_overflow(umax, umax, &s);
  show("umax2 s", o, (u128)s);
  o = __builtin_mul_overflow(1ULL << 63, 1ULL << 63, &s);
  show("u63 s", o, (u128)s);
  o = __builtin_mul_overflow(1ULL << 63, (1ULL << 63) - 1, &s);
  show("u63-1 s", o, (u128)s);
  o = __builtin_mul_overflow(smin, smin, &s);
  show("smin2 s", o, (u128)s);
  o = __builtin_mul_overflow(smin, smin, &u);
  show("smin2 u", o, u);
  o = __builtin_mul_overflow(smin, smax, &s);
  show("sminmax", o, (u128)s);
  o = __builtin_mul_overflow(-3LL, 7, &u);
  show("neg u", o, u);
  o = __builtin_mul_overflow(-3LL, 0, &u);
  show("zero u", o, u);
  o = __builtin_mul_overflow(-3LL, -7LL, &u);
  show("negneg u", o, u);
  o = __builtin_mul_overflow(umax, -1, &s);
  show("umax*-1 s", o, (u128)s);
  o = __builtin_add_overflow(umax, umax, &u);
  show("add u", o, u);
  o = __builtin_add_overflow(smin, smin, &s);
  show("add s", o, (u128)s);
  o = __builtin_add_overflow(smin, 5, &u);
  show("add neg u", o, u);
  o = __builtin_sub_overflow(0ULL, umax, &u);
  show("sub u", o, u);
  o = __builtin_sub_overflow(0ULL, umax, &s);
  show("sub s", o, (u128)s);
  o = __builtin_sub_overflow(smax, smin, &u);
  show("sub pos u", o, u);
  int i;
  for (i = 0; i < 6; i++) {
    long long a = (i & 1 ? -1 : 1) * (1LL << (10 * i));
    unsigned long long b = umax >> (12 * i);
    int o1 = __builtin_mul_overflow(a, b, &s);
    int o2 = __builtin_mul_overflow(a, b, &u);
    show("loop s", o1, (u128)s);
    show("loop u", o2, u);
  }
  printf("%u\n", sum);
  return (int)(sum % 256);
}
