/* Shifts on every integer type, only with in-range amounts. */
#include <stdio.h>

int main(void) {
  unsigned char uc = 0x81;
  signed char sc = -64;
  unsigned short us = 0x8001;
  short ss = -1024;
  unsigned int ui = 0x80000001u;
  int si = -256;
  unsigned long ul = 0x8000000000000001ul;
  long sl = -4096;
  unsigned long long ull = 1;
  int k;
  unsigned long long acc = 0;

  /* uc and us are promoted to int, so << keeps the high bits. */
  printf("uc<<1 = %d, uc>>1 = %d\n", uc << 1, uc >> 1);
  printf("us<<1 = %d, us>>15 = %d\n", us << 1, us >> 15);
  printf("ui<<1 = %u, ui>>31 = %u\n", ui << 1, ui >> 31);
  printf("ul<<1 = %lu, ul>>63 = %lu\n", ul << 1, ul >> 63);
  /* Right shift of negative values: arithmetic on x86-64 (gcc defines it). */
  printf("sc>>2 = %d, ss>>3 = %d, si>>4 = %d, sl>>5 = %ld\n", sc >> 2, ss >> 3, si >> 4, sl >> 5);
  /* Left shift of non-negative signed values within range. */
  printf("1<<30 = %d, 1L<<62 = %ld\n", 1 << 30, 1L << 62);
  for (k = 0; k < 64; k++) acc += ull << k;
  printf("sum of 1<<k = %llx\n", acc);
  for (k = 0; k < 32; k++) {
    unsigned int v = 0xDEADBEEFu;
    acc = acc * 3 + (v >> k) + (v << k);
  }
  printf("acc = %llu\n", acc);
  /* Shift amount of a different type than the operand. */
  unsigned char amt = 3;
  long long wide = 5;
  printf("wide<<amt = %lld, 40>>amt = %d\n", wide << amt, 40 >> amt);
  short sh_amt = 60;
  printf("ull<<60 = %llu\n", ull << sh_amt);
  /* Compound shift assignment. */
  unsigned int r = 0xF0F0F0F0u;
  r >>= 4;
  r <<= 8;
  printf("r = %08x\n", r);
  int neg = -1;
  neg >>= 10;
  printf("neg = %d\n", neg);
  /* Rotations built from shifts. */
  unsigned int x = 0x12345678u;
  for (k = 1; k < 32; k += 7) {
    unsigned int rot = (x << k) | (x >> (32 - k));
    printf("rotl(%d) = %08x\n", k, rot);
  }
  return (int)(acc & 0x7F);
}
