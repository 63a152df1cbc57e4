/* Branch probabilities (expect.cpp): ast:expect around the value a condition
   tests. 1932735283 is 90% of 2^31 (gcc's builtin-expect-probability),
   214748365 its 10%, 858993 gcc's PROB_VERY_UNLIKELY (noreturn, cold). */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
void abort(void);
__attribute__((cold)) void report(int);
int f(int a, int b) {
  if (unlikely(a < 0)) return -1;                          /* 10% */
  while (likely(b > 0)) b -= a;                            /* 90% */
  if (!__builtin_expect(a == 3, 0)) b++;                   /* ast2cfg inverts */
  if (__builtin_expect_with_probability(b, 7, 0.25)) a++;  /* 25% */
  if (__builtin_expect(a, 5) == 5) b += 2;                 /* 90% */
  if (__builtin_expect(a, 5) != 5) b += 3;                 /* 10% */
  if (b == 42) abort();                                    /* PROB_VERY_UNLIKELY */
  if (a == b) b = 1; else report(b);                       /* the else arm is cold */
  if (unlikely(a == 9)) abort();                           /* the explicit expect wins */
  return __builtin_expect(a + b, 0);                       /* a plain value */
}
