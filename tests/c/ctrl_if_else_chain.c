/* if/else chains, nested ifs, dangling else, conditions of every integer type and pointers. */
#include <stdio.h>

static const char *grade(int score) {
  if (score >= 90) return "A";
  else if (score >= 80) return "B";
  else if (score >= 70) return "C";
  else if (score >= 60) return "D";
  else return "F";
}

static int quadrant(int x, int y) {
  if (x > 0)
    if (y > 0) return 1;
    else return 4;
  else if (x < 0) {
    if (y > 0) return 2;
    return 3;
  }
  return 0;
}

static int classify_year(int y) {
  int leap;
  if (y % 400 == 0) leap = 1;
  else if (y % 100 == 0) leap = 0;
  else if (y % 4 == 0) leap = 1;
  else leap = 0;
  return leap;
}

int main(void) {
  int scores[] = {95, 85, 75, 65, 55, 90, 89, 0, 100};
  for (int i = 0; i < 9; i++) printf("%d:%s ", scores[i], grade(scores[i]));
  printf("\n");
  int q = 0;
  for (int x = -1; x <= 1; x++)
    for (int y = -1; y <= 1; y += 2) {
      printf("(%d,%d)->%d ", x, y, quadrant(x, y));
      q = q * 3 + quadrant(x, y);
    }
  printf("\n");
  int leaps = 0;
  for (int y = 1890; y <= 2110; y++) leaps += classify_year(y);
  printf("leaps %d\n", leaps);
  /* Conditions on values of various types: any non-zero is true. */
  unsigned char uc = 0;
  long long big = 0x100000000LL;
  unsigned short us = 0x8000;
  int *null = 0;
  int target = 1, *ptr = &target;
  int bits = 0;
  if (uc) bits |= 1;
  if (big) bits |= 2;
  if (us) bits |= 4;
  if (null) bits |= 8;
  if (ptr) bits |= 16;
  if (!null && ptr) bits |= 32;
  if ((int)big) bits |= 64;  /* the low 32 bits are zero */
  printf("bits %d\n", bits);
  /* An empty then-branch and an else-only effect. */
  int e = 0;
  if (bits > 1000)
    ;
  else
    e = 5;
  printf("e %d q %d\n", e, q);
  return (bits + e + leaps) % 256;
}
