/* Division and remainder: truncation toward zero for every sign combination and width. */
#include <stdio.h>

static void show_int(int a, int b) { printf("%d / %d = %d, %d %% %d = %d\n", a, b, a / b, a, b, a % b); }
static void show_long(long a, long b) { printf("%ld / %ld = %ld, %% = %ld\n", a, b, a / b, a % b); }

int main(void) {
  int vals[] = {7, -7, 13, -13, 1, -1, 100, -100};
  int divs[] = {2, -2, 3, -3, 7, -7};
  int sum = 0;
  int i, j;

  for (i = 0; i < 8; i++)
    for (j = 0; j < 6; j++) {
      show_int(vals[i], divs[j]);
      sum += vals[i] / divs[j] * 3 + vals[i] % divs[j];
    }
  show_long(-9000000000L, 7L);
  show_long(9000000000L, -7L);
  show_long(-9000000000L, -7L);
  /* (a/b)*b + a%b == a always. */
  for (i = -20; i <= 20; i++)
    for (j = -5; j <= 5; j++)
      if (j != 0 && (i / j) * j + i % j != i) printf("identity broken at %d %d\n", i, j);
  /* Narrow types promote to int before dividing. */
  signed char sc = -128;
  printf("sc / -1 = %d\n", sc / -1);
  short ss = -32768;
  printf("ss / -1 = %d\n", ss / -1);
  unsigned char uc = 255;
  printf("uc / 2 = %d, uc %% 7 = %d\n", uc / 2, uc % 7);
  /* Unsigned division is not signed division. */
  unsigned int u = 0xFFFFFFF0u;
  printf("u / 16 = %u, (int)u / 16 = %d\n", u / 16, (int)u / 16);
  printf("u %% 7 = %u, (int)u %% 7 = %d\n", u % 7, (int)u % 7);
  unsigned long long ull = 0xFFFFFFFFFFFFFFFFull;
  printf("ull / 10 = %llu, ull %% 10 = %llu\n", ull / 10, ull % 10);
  /* Mixed: int divided by unsigned int divides unsigned. */
  int m = -10;
  unsigned int d = 3;
  printf("-10 / 3u = %u\n", m / d);
  printf("sum = %d\n", sum);
  return sum < 0 ? -sum : sum;
}
