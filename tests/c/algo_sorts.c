/* Several sorting algorithms on the same data, checked against each other: bubble, selection,
   insertion, shell, heap, and counting sort. */
#include <stdio.h>
#include <string.h>

#define N 200

static void bubble(int *a, int n) {
  for (int i = 0; i < n - 1; i++) {
    int swapped = 0;
    for (int j = 0; j < n - 1 - i; j++)
      if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; swapped = 1; }
    if (!swapped) break;
  }
}

static void selection(int *a, int n) {
  for (int i = 0; i < n - 1; i++) {
    int m = i;
    for (int j = i + 1; j < n; j++) if (a[j] < a[m]) m = j;
    int t = a[i]; a[i] = a[m]; a[m] = t;
  }
}

static void insertion(int *a, int n) {
  for (int i = 1; i < n; i++) {
    int k = a[i], j = i - 1;
    while (j >= 0 && a[j] > k) { a[j + 1] = a[j]; j--; }
    a[j + 1] = k;
  }
}

static void shell(int *a, int n) {
  for (int gap = n / 2; gap > 0; gap /= 2)
    for (int i = gap; i < n; i++) {
      int k = a[i], j;
      for (j = i; j >= gap && a[j - gap] > k; j -= gap) a[j] = a[j - gap];
      a[j] = k;
    }
}

static void sift(int *a, int root, int n) {
  for (;;) {
    int c = 2 * root + 1;
    if (c >= n) return;
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[root] >= a[c]) return;
    int t = a[root]; a[root] = a[c]; a[c] = t;
    root = c;
  }
}

static void heapsort(int *a, int n) {
  for (int i = n / 2 - 1; i >= 0; i--) sift(a, i, n);
  for (int end = n - 1; end > 0; end--) {
    int t = a[0]; a[0] = a[end]; a[end] = t;
    sift(a, 0, end);
  }
}

static void counting(int *a, int n) {
  static int count[1024];
  memset(count, 0, sizeof count);
  for (int i = 0; i < n; i++) count[a[i]]++;
  int k = 0;
  for (int v = 0; v < 1024; v++) while (count[v]--) a[k++] = v;
}

int main(void) {
  int orig[N], work[N], ref[N];
  unsigned s = 2024;
  for (int i = 0; i < N; i++) { s = s * 1664525u + 1013904223u; orig[i] = (int)(s >> 22); }
  void (*sorts[])(int *, int) = {bubble, selection, insertion, shell, heapsort, counting};
  const char *names[] = {"bubble", "selection", "insertion", "shell", "heap", "counting"};
  memcpy(ref, orig, sizeof ref);
  insertion(ref, N);
  int agree = 0;
  for (int k = 0; k < 6; k++) {
    memcpy(work, orig, sizeof work);
    sorts[k](work, N);
    int same = memcmp(work, ref, sizeof ref) == 0;
    agree += same;
    printf("%-9s %s\n", names[k], same ? "ok" : "WRONG");
  }
  for (int i = 0; i < N; i += 20) printf("%d ", ref[i]);
  printf("\nmin %d max %d\n", ref[0], ref[N - 1]);
  return agree * 10 + ref[N / 2] % 10;
}
