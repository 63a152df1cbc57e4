/* Permutations and combinations: Heap's algorithm, next lexicographic permutation, subsets by
   bitmask, and the 8-element derangement count. */
#include <stdio.h>

static int count;
static long weighted;

static void heap_permute(int *a, int n, int k) {
  if (k == 1) {
    count++;
    long w = 0;
    for (int i = 0; i < n; i++) w = w * 10 + a[i];
    weighted += w % 97;
    return;
  }
  for (int i = 0; i < k - 1; i++) {
    heap_permute(a, n, k - 1);
    int j = k % 2 == 0 ? i : 0;
    int t = a[j]; a[j] = a[k - 1]; a[k - 1] = t;
  }
  heap_permute(a, n, k - 1);
}

static int next_permutation(char *s, int n) {
  int i = n - 2;
  while (i >= 0 && s[i] >= s[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (s[j] <= s[i]) j--;
  char t = s[i]; s[i] = s[j]; s[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) { t = s[l]; s[l] = s[r]; s[r] = t; }
  return 1;
}

static int is_derangement(const int *p, int n) {
  for (int i = 0; i < n; i++) if (p[i] == i) return 0;
  return 1;
}

static int derangements(int *p, int n, int k) {
  if (k == n) return is_derangement(p, n);
  int total = 0;
  for (int i = k; i < n; i++) {
    int t = p[k]; p[k] = p[i]; p[i] = t;
    total += derangements(p, n, k + 1);
    t = p[k]; p[k] = p[i]; p[i] = t;
  }
  return total;
}

int main(void) {
  int a[6] = {1, 2, 3, 4, 5, 6};
  heap_permute(a, 6, 6);
  printf("heap: %d permutations, weighted %ld\n", count, weighted);
  char s[] = "aabc";
  int n = 0;
  do { printf("%s ", s); n++; } while (next_permutation(s, 4));
  printf("\n%d distinct\n", n);
  const int set[] = {3, 34, 4, 12, 5, 2};
  int hits = 0;
  for (unsigned mask = 0; mask < 64u; mask++) {
    int sum = 0;
    for (int i = 0; i < 6; i++) if (mask & (1u << i)) sum += set[i];
    if (sum == 9) {
      hits++;
      printf("subset sum 9:");
      for (int i = 0; i < 6; i++) if (mask & (1u << i)) printf(" %d", set[i]);
      printf("\n");
    }
  }
  int p[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int d = derangements(p, 8, 0);
  printf("derangements of 8: %d\n", d);
  return (n + hits + d) % 256;
}
