/* sieve.c - byte-array sieve of Eratosthenes, repeated. */
#include "common.h"

#define LIMIT 2000000
static char composite[LIMIT + 1];

int main(int argc, char **argv) {
  long reps = kernel_scale(argc, argv, 20), r, i, j, count = 0;
  for (r = 0; r < reps; r++) {
    for (i = 0; i <= LIMIT; i++) composite[i] = 0;
    count = 0;
    for (i = 2; i <= LIMIT; i++) {
      if (composite[i]) continue;
      count++;
      for (j = i * i; j <= LIMIT; j += i) composite[j] = 1;
    }
  }
  printf("sieve %ld primes below %d\n", count, LIMIT);
  return 0;
}
