/* manyargs.c - calls with many arguments (stack-passed ones too) and small
   struct results. */
#include "common.h"

struct pair { long lo, hi; };

static long mix8(long a, long b, long c, long d, long e, long f, long g, long h) {
  return (a ^ b) + (c - d) * 3 + (e | f) - (g & h);
}

static struct pair step(struct pair p, long a, long b, long c, long d, long e, long f, long g) {
  struct pair q;
  q.lo = p.lo + mix8(a, b, c, d, e, f, g, p.hi);
  q.hi = p.hi ^ (q.lo >> 3);
  return q;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 60000000), i;
  struct pair p = {1, 2};
  for (i = 0; i < n; i++) p = step(p, i, i + 1, i * 2, i ^ 5, i & 255, i | 9, p.lo & 1023);
  printf("manyargs %ld %ld\n", p.lo, p.hi);
  return 0;
}
