/* __int128 through calls (issue 19) and the 64 x 64 -> 128 multiply real
   hashes use (wyhash's mum, XXH3's mul128_fold64): __int128 arguments in
   registers and on the stack after five longs (16-aligned there), results
   in rax:rdx, through `...` and va_arg (in registers and, 16-aligned, on
   the stack: none at an odd 8-byte slot, where clang 14 disagrees with gcc), inside a struct passed by value,
   and a multiply-fold loop. */
#include <stdarg.h>
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static unsigned long long fold(u128 v) { return (unsigned long long)v ^ (unsigned long long)(v >> 64); }

static void mum(unsigned long long *a, unsigned long long *b) {
  u128 r = (u128)*a * *b;
  *a = (unsigned long long)r;
  *b = (unsigned long long)(r >> 64);
}

static u128 after_five(long a, long b, long c, long d, long e, i128 x, long f, i128 y) {
  return (u128)(x + y) * (u128)(a + b + c + d + e + f);
}

static i128 after_six(long a, long b, long c, long d, long e, long f, i128 x) { return x - (a + b + c + d + e + f); }

static u128 sum_varargs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  u128 total = 0;
  for (int i = 0; i < n; i++) {
    if (i == 1) total += (u128)va_arg(ap, long);
    else total += va_arg(ap, u128);
  }
  va_end(ap);
  return total;
}

struct pair {
  u128 key;
  long weight;
};

static struct pair heavier(struct pair p, u128 extra) {
  p.key = p.key * 3 + extra;
  p.weight++;
  return p;
}

int main(void) {
  unsigned long long seed = 0x9e3779b97f4a7c15ULL, h = 0;
  for (int i = 0; i < 1000; i++) {
    unsigned long long a = seed ^ 0xa0761d6478bd642fULL, b = seed + (unsigned long long)i;
    mum(&a, &b);
    seed = a ^ b;
    h = h * 31 + fold((u128)(seed | 1) * 0xe7037ed1a0b428dbULL);
  }
  printf("mum hash %016llx\n", h);
  u128 big = ((u128)0xdeadbeefULL << 96) | 0x123456789ULL;
  u128 r = after_five(1, 2, 3, 4, 5, (i128)big, 6, -(i128)7);
  printf("five %016llx %016llx\n", (unsigned long long)(r >> 64), (unsigned long long)r);
  i128 s = after_six(10, 20, 30, 40, 50, 60, -(i128)big);
  printf("six %016llx %016llx\n", (unsigned long long)((u128)s >> 64), (unsigned long long)s);
  u128 v = sum_varargs(5, big, -100L, (u128)1 << 127, ~(u128)0, (u128)5 << 64);
  printf("varargs %016llx %016llx\n", (unsigned long long)(v >> 64), (unsigned long long)v);
  struct pair p = {big, 40};
  for (int i = 0; i < 5; i++) p = heavier(p, (u128)i << 100);
  printf("pair %016llx %016llx %ld\n", (unsigned long long)(p.key >> 64), (unsigned long long)p.key, p.weight);
  u128 acc = 1;
  for (int i = 1; i <= 34; i++) acc *= (u128)i;
  printf("34! %016llx %016llx\n", (unsigned long long)(acc >> 64), (unsigned long long)acc);
  return (int)((h ^ fold(acc)) % 256);
}
