/* The usual arithmetic conversions across ranks and signedness, observed through results and sizeof. */
#include <stdio.h>

int main(void) {
  int i = -5;
  unsigned int u = 3;
  long l = -5;
  unsigned long ul = 3;
  long long ll = -5;
  unsigned short us = 3;
  short s = -5;
  unsigned char uc = 3;

  /* int + unsigned int -> unsigned int */
  printf("i+u = %u (size %d)\n", i + u, (int)sizeof(i + u));
  /* long + unsigned int -> long (unsigned int fits in long) */
  printf("l+u = %ld (size %d)\n", l + u, (int)sizeof(l + u));
  /* long + unsigned long -> unsigned long */
  printf("l+ul = %lu\n", l + ul);
  /* long long + unsigned int -> long long */
  printf("ll+u = %lld\n", ll + u);
  /* short + unsigned short -> int */
  printf("s+us = %d (size %d)\n", s + us, (int)sizeof(s + us));
  /* char types -> int */
  printf("s*uc = %d\n", s * uc);
  /* Division under unsigned conversion. */
  printf("i/u = %u, l/u = %ld\n", i / u, l / u);
  /* Right shift of the converted value. */
  printf("(i+u)>>28 = %u, (l+u)>>1 = %ld\n", (i + u) >> 28, (l + u) >> 1);
  /* Conditional operator uses the common type too. */
  int flag = 1;
  long cond = flag ? i : u;
  printf("cond = %ld\n", cond);
  long cond2 = flag ? i : l;
  printf("cond2 = %ld\n", cond2);
  /* Mixed multiplication of int and unsigned long long. */
  unsigned long long prod = i * 2ULL;
  printf("prod = %llu\n", prod);
  /* Modulo with mixed types. */
  printf("i %% 3u = %u\n", i % 3u);
  printf("i %% 3L = %ld\n", i % 3L);
  /* Sums over a loop mixing types. */
  unsigned long acc = 0;
  for (int k = -10; k < 10; k++) acc += k;
  printf("acc = %lu\n", acc);
  long sacc = 0;
  for (unsigned int k = 0; k < 10; k++) sacc += (int)k - 5;
  printf("sacc = %ld\n", sacc);
  return (int)((i + u) % 100u);
}
