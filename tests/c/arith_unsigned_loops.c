/* Loops with unsigned and size_t counters: counting down to zero without wrapping forever,
   loops whose bound wraps, and mixed-width induction variables. */
#include <stdio.h>
#include <stddef.h>

int main(void) {
  int a[10];
  for (size_t i = 0; i < 10; i++) a[i] = (int)(i * i);
  /* Counting down with a size_t: test before decrement. */
  long s = 0;
  for (size_t i = 10; i-- > 0;) s = s * 3 + a[i];
  printf("down %ld\n", s);
  /* Counting down with unsigned char wraps 0 -> 255: stop explicitly. */
  unsigned char c = 5;
  int n = 0;
  do {
    n++;
  } while (c-- != 0);
  printf("uchar countdown iterations %d, c now %u\n", n, c);
  /* An unsigned short counter running past its maximum wraps to 0. */
  unsigned short us = 65530;
  int steps = 0;
  while (us != 4) { us++; steps++; }
  printf("ushort steps %d\n", steps);
  /* The bound is computed in unsigned arithmetic: 3u - 5 is huge, so guard it. */
  unsigned lo = 3, hi = 5;
  unsigned span = lo < hi ? hi - lo : 0;
  unsigned wrapped = lo - hi;
  printf("span %u wrapped %u\n", span, wrapped);
  /* Step by a stride that overshoots the bound. */
  int count = 0;
  for (unsigned i = 0; i < 100; i += 7) count++;
  printf("stride count %d\n", count);
  /* A 64-bit induction variable with a 32-bit bound. */
  unsigned long long total = 0;
  unsigned int bound = 70000;
  for (unsigned long long i = 0; i < bound; i += 1000) total += i;
  printf("total %llu\n", total);
  /* Signed index compared against sizeof (converted to unsigned): cast to keep it signed. */
  int found = -1;
  for (int i = (int)(sizeof a / sizeof a[0]) - 1; i >= 0; i--)
    if (a[i] % 2 == 1 && found < 0) found = i;
  printf("last odd square at %d\n", found);
  /* Loop over an unsigned range that includes the maximum value: stop before the increment. */
  unsigned char k = 250;
  int visited = 0;
  for (;;) {
    visited++;
    if (k == 255) break;
    k++;
  }
  printf("visited %d\n", visited);
  return (int)(s % 256) ^ steps;
}
