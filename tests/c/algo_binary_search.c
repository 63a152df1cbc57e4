/* Binary search variants: exact match, lower bound, upper bound, on ints and strings, and a
   binary search on the answer (integer cube root of a 64-bit value). */
#include <stdio.h>
#include <string.h>

static int find(const int *a, int n, int key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) return mid;
    if (a[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

static int lower_bound(const int *a, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static int upper_bound(const int *a, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] <= key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static int find_str(const char *const *v, int n, const char *key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = strcmp(v[mid], key);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  return -1;
}

int main(void) {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = (i / 3) * 5;
  int keys[] = {0, 5, 7, 100, 105, 200, -1};
  int check = 0;
  for (int k = 0; k < 7; k++) {
    int lb = lower_bound(a, 64, keys[k]), ub = upper_bound(a, 64, keys[k]);
    int f = find(a, 64, keys[k]);
    printf("key %d: find %s lower %d upper %d count %d\n", keys[k], f >= 0 ? "yes" : "no", lb, ub, ub - lb);
    check += ub - lb;
  }
  const char *const words[] = {"ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen"};
  const char *probes[] = {"ant", "dog", "hen", "cow", "zebra"};
  for (int i = 0; i < 5; i++) printf("%s -> %d\n", probes[i], find_str(words, 8, probes[i]));
  unsigned long long targets[] = {0, 1, 26, 27, 1000000, 18446744073709551615ull};
  for (int i = 0; i < 6; i++) {
    unsigned long long lo = 0, hi = 2642245;
    while (lo < hi) {
      unsigned long long mid = (lo + hi + 1) / 2;
      if (mid * mid * mid <= targets[i]) lo = mid; else hi = mid - 1;
    }
    printf("cbrt(%llu) = %llu\n", targets[i], lo);
  }
  return check;
}
