/* Integer promotions: char and short operands become int before arithmetic. */
#include <stdio.h>

static int sum_uchars(unsigned char a, unsigned char b) { return a + b; }
static int diff_ushorts(unsigned short a, unsigned short b) { return a - b; }

int main(void) {
  unsigned char uc = 200, uc2 = 100;
  signed char sc = -100, sc2 = -50;
  unsigned short us = 65000, us2 = 1000;
  short s = -30000, s2 = -10000;
  int total = 0;

  /* 200 + 100 does not wrap at 8 bits: the sum is an int. */
  printf("uc+uc2 = %d\n", uc + uc2);
  printf("sum_uchars = %d\n", sum_uchars(250, 250));
  /* sc + sc2 is -150, an int. */
  printf("sc+sc2 = %d\n", sc + sc2);
  /* us + us2 = 66000 as int. */
  printf("us+us2 = %d\n", us + us2);
  printf("diff_ushorts = %d\n", diff_ushorts(1, 2));
  printf("s+s2 = %d\n", s + s2);
  /* ~uc is computed on an int: ~200 = -201. */
  printf("~uc = %d\n", ~uc);
  printf("-uc = %d\n", -uc);
  /* uc << 4 keeps the high bits in an int. */
  printf("uc<<4 = %d\n", uc << 4);
  /* sizeof shows the promoted type. */
  printf("sizeof(uc+uc) = %d, sizeof(+sc) = %d, sizeof(s*s) = %d\n",
         (int)sizeof(uc + uc), (int)sizeof(+sc), (int)sizeof(s * s));
  /* The result stored back truncates. */
  uc = uc + uc2;
  printf("uc after wrap = %d\n", uc);
  sc = sc + sc2 + 256;
  printf("sc = %d\n", sc);
  /* Multiplying two unsigned shorts promotes to int: 200*300 fits. */
  unsigned short m1 = 200, m2 = 300;
  printf("m1*m2 = %d\n", m1 * m2);
  /* Comparison after promotion: (unsigned char)255 == 255, not -1. */
  unsigned char all = 0xFF;
  printf("all == 255: %d, all == -1: %d\n", all == 255, all == -1);
  signed char neg = -1;
  printf("neg == -1: %d, neg == 255: %d\n", neg == -1, neg == 255);
  /* Division of promoted values. */
  printf("us / uc2 = %d\n", us / uc2);
  total = uc + sc + us + s + m1 + all + neg;
  printf("total = %d\n", total);
  return total & 0xFF;
}
