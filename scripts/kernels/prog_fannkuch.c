/* prog_fannkuch.c - the benchmarks game's fannkuch-redux: every
   permutation of 1..n in Heap-like order, each flipped until 1 comes
   first; the checksum and the most flips. Small arrays, tight loops. */
#include "common.h"

int main(int argc, char **argv) {
  int n = (int)kernel_scale(argc, argv, 10), i;
  int perm[16], perm1[16], count[16];
  int max_flips = 0, checksum = 0, permutations = 0, r;
  if (n > 15) n = 15;
  for (i = 0; i < n; i++) perm1[i] = i;
  r = n;
  for (;;) {
    int flips = 0, k;
    while (r != 1) { count[r - 1] = r; r--; }
    for (i = 0; i < n; i++) perm[i] = perm1[i];
    while ((k = perm[0]) != 0) {
      int lo = 0, hi = k;
      while (lo < hi) { int t = perm[lo]; perm[lo] = perm[hi]; perm[hi] = t; lo++; hi--; }
      flips++;
    }
    if (flips > max_flips) max_flips = flips;
    checksum += permutations % 2 == 0 ? flips : -flips;
    for (;;) {
      int first;
      if (r == n) {
        printf("%d\nPfannkuchen(%d) = %d\n", checksum, n, max_flips);
        return 0;
      }
      first = perm1[0];
      for (i = 0; i < r; i++) perm1[i] = perm1[i + 1];
      perm1[r] = first;
      if (--count[r] > 0) break;
      r++;
    }
    permutations++;
  }
}
