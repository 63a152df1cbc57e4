/* __int128 shifts by every count class (issue 19): 0, 1..63, 64, 65..127,
   left, arithmetic right on negative values, logical right on unsigned
   ones, with counts of several types (char, int, long, __int128), and
   rotates built from them. The counts stay below 128. */
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static unsigned long long mix(unsigned long long h, u128 v) {
  h ^= (unsigned long long)v;
  h *= 0x100000001b3ULL;
  h ^= (unsigned long long)(v >> 64);
  h *= 0x100000001b3ULL;
  return h;
}

static u128 rotl(u128 v, int n) { return n == 0 ? v : (v << n) | (v >> (128 - n)); }

int main(void) {
  u128 pattern = ((u128)0x8123456789abcdefULL << 64) | 0xfedcba9876543211ULL;
  i128 negative = -(i128)0x123456789abcdefLL * 0x10000000000LL - 77;
  unsigned long long h = 14695981039346656037ULL;
  for (int n = 0; n < 128; n++) {
    u128 l = pattern << n, r = pattern >> n;
    i128 s = negative >> n, p = (i128)(pattern >> 1) >> n;
    h = mix(mix(mix(mix(h, l), r), (u128)s), (u128)p);
    if (n % 21 == 0 || n == 63 || n == 64 || n == 65 || n == 127)
      printf("%3d %016llx%016llx %016llx%016llx %016llx%016llx\n", n, (unsigned long long)(l >> 64),
             (unsigned long long)l, (unsigned long long)(r >> 64), (unsigned long long)r,
             (unsigned long long)((u128)s >> 64), (unsigned long long)s);
  }
  signed char c8 = 100;
  long c64 = 64;
  i128 c128 = 127;
  printf("typed %016llx %016llx %016llx\n", (unsigned long long)(pattern << c8 >> 64),
         (unsigned long long)((u128)negative >> c64), (unsigned long long)(negative >> c128));
  int narrow = 1;
  narrow <<= (i128)5;
  printf("int by int128 %d %d\n", narrow, 1000 >> (u128)3);
  u128 x = pattern;
  for (int n = 0; n < 128; n += 5) {
    x = rotl(x, n) ^ (x >> 3);
    h = mix(h, x);
  }
  u128 one = 1;
  int bits = 0;
  while (one) {
    one <<= 1;
    bits++;
  }
  printf("bits %d rot %016llx\n", bits, (unsigned long long)x);
  printf("hash %016llx\n", h);
  return (int)(h % 256);
}
