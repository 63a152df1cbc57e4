/* Sieve of Eratosthenes up to 100000, prime counting, twin primes, and Goldbach checks. */
#include <stdio.h>
#include <string.h>

#define LIMIT 100000

static unsigned char composite[LIMIT + 1];

static void sieve(void) {
  memset(composite, 0, sizeof composite);
  composite[0] = composite[1] = 1;
  for (long i = 2; i * i <= LIMIT; i++)
    if (!composite[i])
      for (long j = i * i; j <= LIMIT; j += i) composite[j] = 1;
}

int main(void) {
  sieve();
  int count = 0, twins = 0, last = 0;
  long sum = 0;
  for (int i = 2; i <= LIMIT; i++) {
    if (composite[i]) continue;
    count++;
    sum += i;
    if (i - last == 2) twins++;
    last = i;
  }
  printf("primes <= %d: %d, sum %ld, twin pairs %d, largest %d\n", LIMIT, count, sum, twins, last);
  int checkpoints[] = {10, 100, 1000, 10000};
  for (int c = 0; c < 4; c++) {
    int n = 0;
    for (int i = 2; i <= checkpoints[c]; i++) n += !composite[i];
    printf("pi(%d) = %d\n", checkpoints[c], n);
  }
  /* Goldbach: every even number 4..2000 is a sum of two primes. */
  int failures = 0, max_small = 0;
  for (int e = 4; e <= 2000; e += 2) {
    int p = 2;
    while (composite[p] || composite[e - p]) p++;
    if (p > e / 2) failures++;
    if (p > max_small) max_small = p;
  }
  printf("goldbach failures %d, largest smallest prime %d\n", failures, max_small);
  /* Largest prime gap below the limit. */
  int gap = 0, gap_at = 0;
  last = 2;
  for (int i = 3; i <= LIMIT; i++)
    if (!composite[i]) {
      if (i - last > gap) { gap = i - last; gap_at = last; }
      last = i;
    }
  printf("largest gap %d after %d\n", gap, gap_at);
  return count % 256;
}
