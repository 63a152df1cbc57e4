/* Comparisons between signed and unsigned operands (usual arithmetic conversions). */
#include <stdio.h>

static const char *yes(int b) { return b ? "yes" : "no"; }

int main(void) {
  int m1 = -1;
  unsigned int u1 = 1;
  long lm1 = -1;
  unsigned long ul1 = 1;
  unsigned short us = 1;
  unsigned char uc = 1;
  long long llm = -1;
  unsigned int big = 3000000000u;
  int score = 0;

  /* int vs unsigned int: -1 becomes UINT_MAX. */
  printf("-1 < 1u: %s\n", yes(m1 < u1));
  score += m1 < u1;
  /* long vs unsigned int: unsigned int fits in long, so -1 < 1. */
  printf("-1L < 1u: %s\n", yes(lm1 < u1));
  score += (lm1 < u1) * 2;
  /* long vs unsigned long: -1 becomes ULONG_MAX. */
  printf("-1L < 1ul: %s\n", yes(lm1 < ul1));
  score += (lm1 < ul1) * 4;
  /* unsigned short and unsigned char promote to int. */
  printf("-1 < (ushort)1: %s\n", yes(m1 < us));
  printf("-1 < (uchar)1: %s\n", yes(m1 < uc));
  score += (m1 < us) * 8 + (m1 < uc) * 16;
  /* long long vs unsigned int. */
  printf("-1LL < 3000000000u: %s\n", yes(llm < big));
  score += (llm < big) * 32;
  /* int vs big unsigned. */
  printf("-1 > 3000000000u: %s\n", yes(m1 > big));
  score += (m1 > big) * 64;
  /* Equality across signedness. */
  printf("-1 == 0xFFFFFFFFu: %s\n", yes(m1 == 0xFFFFFFFFu));
  printf("-1L == 0xFFFFFFFFu: %s\n", yes(lm1 == 0xFFFFFFFFu));
  /* Casting explicitly changes the answer. */
  printf("(unsigned)-1 > 0u: %s\n", yes((unsigned)m1 > 0u));
  printf("-1 < (int)1u: %s\n", yes(m1 < (int)u1));
  /* Mixed in a loop condition. */
  int steps = 0;
  for (int i = -3; i < (int)u1 + 2; i++) steps++;
  printf("steps = %d\n", steps);
  unsigned int lim = 4;
  int j = -2, n = 0;
  while (j < 0 || (unsigned)j < lim) { n++; j++; }
  printf("n = %d\n", n);
  printf("score = %d\n", score);
  return score;
}
