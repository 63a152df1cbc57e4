/* Unsigned wrap-around at every width. */
#include <stdio.h>

int main(void) {
  unsigned char c = 250;
  unsigned short s = 65530;
  unsigned int i = 4294967290u;
  unsigned long l = 18446744073709551610ul;
  unsigned long long ll = 0;
  int k;

  for (k = 0; k < 10; k++) {
    c++;
    s++;
    i++;
    l++;
  }
  printf("after +10: c=%u s=%u i=%u l=%lu\n", c, s, i, l);
  ll--;
  printf("0-1 as ull: %llu\n", ll);
  printf("0-1 as hex: %llx\n", ll);
  i = 0;
  i -= 1;
  printf("uint 0-1 = %u\n", i);
  i = 3000000000u;
  i += 3000000000u;
  printf("3e9+3e9 mod 2^32 = %u\n", i);
  i = 65536u;
  i *= 65536u;
  printf("65536*65536 mod 2^32 = %u\n", i);
  l = 1ul << 63;
  l *= 2;
  printf("2^63*2 mod 2^64 = %lu\n", l);
  s = 0;
  s--;
  printf("ushort 0-1 = %u\n", s);
  c = 0;
  c -= 3;
  printf("uchar 0-3 = %u\n", c);
  /* Negating unsigned values. */
  unsigned int neg = -5u;
  printf("-5u = %u\n", neg);
  printf("-(1u) + 1 = %u\n", -(1u) + 1);
  /* Counting down with an unsigned counter. */
  unsigned int count = 0;
  for (unsigned int d = 5; d-- > 0;) count += d;
  printf("count = %u\n", count);
  /* Multiplicative wrap in a loop. */
  unsigned int h = 1;
  for (k = 0; k < 40; k++) h = h * 31u + 7u;
  printf("h = %u\n", h);
  unsigned long long g = 1;
  for (k = 0; k < 70; k++) g *= 3;
  printf("3^70 mod 2^64 = %llu\n", g);
  return (int)(h % 200u);
}
