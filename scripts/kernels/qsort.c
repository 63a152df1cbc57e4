/* qsort.c - sorting: quicksort (recursive, Hoare partition) and insertion
   sort for small ranges on pseudo-random ints. */
#include <stdlib.h>
#include "common.h"

static void insertion(int *a, long lo, long hi) {
  long i, j;
  for (i = lo + 1; i <= hi; i++) {
    int v = a[i];
    for (j = i - 1; j >= lo && a[j] > v; j--) a[j + 1] = a[j];
    a[j + 1] = v;
  }
}

static void quick(int *a, long lo, long hi) {
  while (hi - lo > 16) {
    int pivot = a[lo + (hi - lo) / 2];
    long i = lo - 1, j = hi + 1;
    for (;;) {
      int t;
      do i++; while (a[i] < pivot);
      do j--; while (a[j] > pivot);
      if (i >= j) break;
      t = a[i]; a[i] = a[j]; a[j] = t;
    }
    if (j - lo < hi - j) { quick(a, lo, j); lo = j + 1; }
    else { quick(a, j + 1, hi); hi = j; }
  }
  insertion(a, lo, hi);
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 1500000), i;
  int *a = malloc(sizeof(int) * (size_t)n);
  unsigned x = 2463534242u;
  unsigned long check = 0;
  for (i = 0; i < n; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; a[i] = (int)(x % 1000000u) - 500000; }
  quick(a, 0, n - 1);
  for (i = 1; i < n; i++)
    if (a[i - 1] > a[i]) { printf("not sorted at %ld\n", i); return 1; }
  for (i = 0; i < n; i += 1000) check = check * 17 + (unsigned)a[i];
  printf("qsort %lu\n", check);
  free(a);
  return 0;
}
