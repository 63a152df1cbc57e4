/* Bitwise operators: &, |, ^, ~ and bit tricks on several widths. */
#include <stdio.h>

static int popcount32(unsigned int x) {
  int n = 0;
  while (x) { x &= x - 1; n++; }
  return n;
}

static unsigned int reverse_bits(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i++) { r = (r << 1) | (x & 1u); x >>= 1; }
  return r;
}

static int parity64(unsigned long long x) {
  x ^= x >> 32; x ^= x >> 16; x ^= x >> 8; x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
  return (int)(x & 1);
}

static unsigned int lowest_set(unsigned int x) { return x & (0u - x); }

int main(void) {
  unsigned int a = 0xF0F0A5A5u, b = 0x0FF05A5Au;
  printf("and %08x or %08x xor %08x not %08x\n", a & b, a | b, a ^ b, ~a);
  unsigned char c = 0xAA;
  printf("~c as int %d, (unsigned char)~c %u\n", ~c, (unsigned char)~c);
  long long s = -1;
  printf("s & 0xFF = %lld, s ^ 1 = %lld\n", s & 0xFF, s ^ 1);
  int total = 0;
  for (unsigned int x = 1; x < 100000u; x = x * 7 + 3) {
    int p = popcount32(x);
    total += p;
    printf("%u: pop %d rev %08x low %u par %d\n", x, p, reverse_bits(x), lowest_set(x),
           parity64((unsigned long long)x * 0x100000001ull));
  }
  /* Set, clear and toggle bits in a mask. */
  unsigned long long mask = 0;
  for (int i = 0; i < 64; i += 3) mask |= 1ull << i;
  for (int i = 0; i < 64; i += 6) mask &= ~(1ull << i);
  mask ^= 0xFFFF;
  printf("mask %016llx pop %d\n", mask,
         popcount32((unsigned int)mask) + popcount32((unsigned int)(mask >> 32)));
  /* Signed bitwise on negative numbers (two's complement). */
  int n = -12;
  printf("n & 7 = %d, n | 1 = %d, n ^ -1 = %d, ~n = %d\n", n & 7, n | 1, n ^ -1, ~n);
  /* Swap with xor. */
  int x = 12345, y = -678;
  x ^= y; y ^= x; x ^= y;
  printf("swapped %d %d\n", x, y);
  return total;
}
