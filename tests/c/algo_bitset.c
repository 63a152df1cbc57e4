/* A bitset over an array of 64-bit words: set, clear, test, population count, union and
   intersection, iteration over set bits, used for a sieve of odd numbers and set algebra. */
#include <stdio.h>
#include <string.h>

#define BITS 2048
#define WORDS (BITS / 64)

typedef struct { unsigned long long w[WORDS]; } bitset;

static void bs_set(bitset *b, unsigned i) { b->w[i / 64] |= 1ull << (i % 64); }
static void bs_clear(bitset *b, unsigned i) { b->w[i / 64] &= ~(1ull << (i % 64)); }
static int bs_test(const bitset *b, unsigned i) { return (int)(b->w[i / 64] >> (i % 64) & 1); }

static int popcount64(unsigned long long x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (int)((x * 0x0101010101010101ull) >> 56);
}

static int bs_count(const bitset *b) {
  int n = 0;
  for (int i = 0; i < WORDS; i++) n += popcount64(b->w[i]);
  return n;
}

static int lowest_bit_index(unsigned long long x) {
  int n = 0;
  while (!(x & 1)) { x >>= 1; n++; }
  return n;
}

int main(void) {
  bitset primes, multiples_of_3, both;
  memset(&primes, 0xFF, sizeof primes);
  bs_clear(&primes, 0);
  bs_clear(&primes, 1);
  for (unsigned i = 2; i * i < BITS; i++)
    if (bs_test(&primes, i))
      for (unsigned j = i * i; j < BITS; j += i) bs_clear(&primes, j);
  printf("primes below %d: %d\n", BITS, bs_count(&primes));
  memset(&multiples_of_3, 0, sizeof multiples_of_3);
  for (unsigned i = 0; i < BITS; i += 3) bs_set(&multiples_of_3, i);
  printf("multiples of 3: %d\n", bs_count(&multiples_of_3));
  for (int i = 0; i < WORDS; i++) both.w[i] = primes.w[i] | multiples_of_3.w[i];
  printf("union %d\n", bs_count(&both));
  for (int i = 0; i < WORDS; i++) both.w[i] = primes.w[i] & ~multiples_of_3.w[i];
  printf("primes not multiple of 3: %d\n", bs_count(&both));
  /* Iterate over the set bits of the first two words. */
  printf("first primes:");
  for (int k = 0; k < 2; k++) {
    unsigned long long w = primes.w[k];
    while (w) {
      printf(" %d", k * 64 + lowest_bit_index(w));
      w &= w - 1;
    }
  }
  printf("\n");
  printf("popcount checks %d %d %d\n", popcount64(0), popcount64(~0ull), popcount64(0x8000000000000001ull));
  return bs_count(&primes) % 256;
}
