/* bits.c - bit manipulation: popcount, bit reversal, CRC-32 bit by bit. */
#include "common.h"

static int popcount(unsigned long x) {
  int c = 0;
  while (x) { x &= x - 1; c++; }
  return c;
}

static unsigned reverse(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}

static unsigned crc32_byte(unsigned crc, unsigned char b) {
  int k;
  crc ^= b;
  for (k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  return crc;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 3000000), i;
  unsigned long x = 88172645463325252ul;
  unsigned crc = 0xFFFFFFFFu, rev = 0;
  long pop = 0;
  for (i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    pop += popcount(x);
    rev ^= reverse((unsigned)x);
    crc = crc32_byte(crc, (unsigned char)x);
  }
  printf("bits %ld %u %u\n", pop, rev, ~crc);
  return 0;
}
