/* Compound assignment on every integer type, including narrow ones where the result truncates. */
#include <stdio.h>

int main(void) {
  signed char sc = 100;
  unsigned char uc = 200;
  short s = 30000;
  unsigned short us = 60000;
  int i = 7;
  unsigned int u = 7;
  long l = -7;
  unsigned long long ull = 1;

  sc += 100;   /* 200 -> -56 */
  uc += 100;   /* 300 -> 44 */
  s += 10000;  /* 40000 -> -25536 */
  us += 10000; /* 70000 -> 4464 */
  printf("%d %u %d %u\n", sc, uc, s, us);
  sc -= 100;
  uc -= 50;
  s *= 2;
  us *= 3;
  printf("%d %u %d %u\n", sc, uc, s, us);
  i *= 6; i /= 4; i %= 7; i <<= 3; i >>= 1; i &= 0x1F; i |= 0x40; i ^= 0x55;
  printf("i = %d\n", i);
  u -= 10; u /= 3; u %= 1000; u <<= 2; u >>= 1; u ^= 0xFF;
  printf("u = %u\n", u);
  l *= 1000000000L; l /= 3; l %= 1000003; l -= 5;
  printf("l = %ld\n", l);
  for (int k = 0; k < 20; k++) { ull *= 77; ull += k; ull ^= ull >> 13; }
  printf("ull = %llu\n", ull);
  /* Compound assignment whose right side is wider than the left. */
  unsigned char acc = 0;
  for (long k = 0; k < 1000; k++) acc += k * 1000003L;
  printf("acc = %u\n", acc);
  short sh = 1;
  sh <<= 14;
  sh += sh;  /* 32768 truncates to -32768 */
  printf("sh = %d\n", sh);
  /* Division compound with a negative divisor on an unsigned left side. */
  unsigned int uu = 100;
  uu /= -1;  /* -1 converts to UINT_MAX: 100 / UINT_MAX = 0 */
  printf("uu = %u\n", uu);
  int si = 100;
  si /= -3;
  printf("si = %d\n", si);
  /* The value of a compound assignment expression. */
  int v = 5;
  int w = (v += 3) * 2;
  printf("v = %d w = %d\n", v, w);
  int arr[4] = {1, 2, 3, 4};
  int idx = 0;
  arr[idx++] += 10;
  arr[++idx] *= 5;
  printf("arr %d %d %d %d idx %d\n", arr[0], arr[1], arr[2], arr[3], idx);
  return (sc + uc + s + us + i + (int)u + w) & 0xFF;
}
