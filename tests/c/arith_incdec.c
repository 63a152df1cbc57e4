/* Pre/post increment and decrement on integers of every width and on pointers. */
#include <stdio.h>

int main(void) {
  signed char sc = 127;
  unsigned char uc = 0;
  short s = -32768;
  unsigned short us = 65535;
  int i = 0;
  long long ll = 9223372036854775806LL;
  int arr[5] = {10, 20, 30, 40, 50};
  int *p = arr;
  long larr[3] = {100, 200, 300};
  long *lp = &larr[2];

  int post = i++;
  int pre = ++i;
  printf("post: %d pre: %d\n", post, pre);
  i = 10;
  int a = i++;
  int b = ++i;
  int c = i--;
  int d = --i;
  printf("a=%d b=%d c=%d d=%d i=%d\n", a, b, c, d, i);
  sc++;
  uc--;
  s--;
  us++;
  printf("sc=%d uc=%u s=%d us=%u\n", sc, uc, s, us);
  ll++;
  printf("ll=%lld\n", ll);
  printf("*p++=%d ", *p++);
  printf("*p=%d ", *p);
  printf("*++p=%d ", *++p);
  printf("++*p=%d ", ++*p);
  printf("(*p)++=%d ", (*p)++);
  printf("*p=%d\n", *p);
  long last = *lp--;
  printf("*lp--=%ld *lp=%ld\n", last, *lp);
  lp--;
  printf("*lp=%ld\n", *lp);
  /* Loop counting with both forms. */
  int sum = 0;
  for (int k = 0; k < 10; ++k) sum += k;
  for (int k = 10; k > 0; k--) sum += k;
  printf("sum=%d\n", sum);
  /* Increment through a pointer to char in a string copy. */
  char buf[16];
  const char *src = "increment";
  char *dst = buf;
  while ((*dst++ = *src++) != 0) {
  }
  printf("%s %d\n", buf, (int)(dst - buf));
  /* Increment of array elements via index expression with side effects. */
  int counts[4] = {0, 0, 0, 0};
  int keys[10] = {1, 3, 2, 1, 0, 3, 3, 2, 1, 1};
  for (int k = 0; k < 10; k++) counts[keys[k]]++;
  printf("counts %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3]);
  return arr[0] + arr[1] + arr[2] + counts[1];
}
