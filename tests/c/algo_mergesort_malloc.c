/* Top-down merge sort with a malloc'd scratch buffer, stable on records, plus a bottom-up
   variant; inversions counted during the merge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int key; int seq; };

static long long inversions;

static void merge(struct rec *a, struct rec *tmp, int lo, int mid, int hi) {
  int i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (a[j].key < a[i].key) { tmp[k++] = a[j++]; inversions += mid - i; }
    else tmp[k++] = a[i++];
  }
  while (i < mid) tmp[k++] = a[i++];
  while (j < hi) tmp[k++] = a[j++];
  memcpy(a + lo, tmp + lo, sizeof(struct rec) * (size_t)(hi - lo));
}

static void sort_td(struct rec *a, struct rec *tmp, int lo, int hi) {
  if (hi - lo < 2) return;
  int mid = lo + (hi - lo) / 2;
  sort_td(a, tmp, lo, mid);
  sort_td(a, tmp, mid, hi);
  merge(a, tmp, lo, mid, hi);
}

static void sort_bu(struct rec *a, int n) {
  struct rec *tmp = malloc(sizeof(struct rec) * (size_t)n);
  for (int w = 1; w < n; w *= 2)
    for (int lo = 0; lo < n - w; lo += 2 * w) merge(a, tmp, lo, lo + w, lo + 2 * w < n ? lo + 2 * w : n);
  free(tmp);
}

int main(void) {
  int n = 1000;
  struct rec *a = malloc(sizeof(struct rec) * (size_t)n);
  struct rec *b = malloc(sizeof(struct rec) * (size_t)n);
  struct rec *tmp = malloc(sizeof(struct rec) * (size_t)n);
  unsigned s = 99;
  for (int i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    a[i].key = (int)((s >> 16) % 50);
    a[i].seq = i;
  }
  memcpy(b, a, sizeof(struct rec) * (size_t)n);
  inversions = 0;
  sort_td(a, tmp, 0, n);
  long long inv_td = inversions;
  sort_bu(b, n);
  int sorted = 1, stable = 1;
  for (int i = 1; i < n; i++) {
    if (a[i - 1].key > a[i].key) sorted = 0;
    if (a[i - 1].key == a[i].key && a[i - 1].seq > a[i].seq) stable = 0;
  }
  int same = memcmp(a, b, sizeof(struct rec) * (size_t)n) == 0;
  printf("sorted %d stable %d same %d inversions %lld\n", sorted, stable, same, inv_td);
  for (int i = 0; i < n; i += 100) printf("(%d,%d) ", a[i].key, a[i].seq);
  printf("\n");
  free(a);
  free(b);
  free(tmp);
  return (int)(inv_td % 256);
}
