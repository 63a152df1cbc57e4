/* Prefix sums three ways: a running prefix array, a Fenwick (binary indexed) tree with point
   updates, and a sparse table for range minimum queries. */
#include <stdio.h>

#define N 64

static long fen[N + 1];

static void fen_add(int i, long v) { for (i++; i <= N; i += i & -i) fen[i] += v; }
static long fen_sum(int i) { long s = 0; for (; i > 0; i -= i & -i) s += fen[i]; return s; } /* sum of [0, i) */

static int sparse[7][N];
static int log2i(int x) { int r = 0; while (x >>= 1) r++; return r; }

static void build_sparse(const int *a) {
  for (int i = 0; i < N; i++) sparse[0][i] = a[i];
  for (int k = 1; (1 << k) <= N; k++)
    for (int i = 0; i + (1 << k) <= N; i++) {
      int x = sparse[k - 1][i], y = sparse[k - 1][i + (1 << (k - 1))];
      sparse[k][i] = x < y ? x : y;
    }
}

static int range_min(int lo, int hi) { /* [lo, hi] */
  int k = log2i(hi - lo + 1);
  int x = sparse[k][lo], y = sparse[k][hi - (1 << k) + 1];
  return x < y ? x : y;
}

int main(void) {
  int a[N];
  long prefix[N + 1];
  unsigned s = 17;
  for (int i = 0; i < N; i++) { s = s * 69069u + 1; a[i] = (int)(s >> 24) - 128; }
  prefix[0] = 0;
  for (int i = 0; i < N; i++) { prefix[i + 1] = prefix[i] + a[i]; fen_add(i, a[i]); }
  int mismatches = 0;
  for (int i = 0; i <= N; i++) mismatches += fen_sum(i) != prefix[i];
  printf("fenwick vs prefix mismatches %d, total %ld\n", mismatches, prefix[N]);
  for (int i = 0; i < N; i += 5) { fen_add(i, 1000); a[i] += 1000; }
  long check = 0;
  for (int i = 0; i < N; i++) check += a[i];
  printf("after updates %ld %ld\n", fen_sum(N), check);
  printf("range [10,20) %ld\n", fen_sum(20) - fen_sum(10));
  build_sparse(a);
  int queries[][2] = {{0, 63}, {5, 5}, {10, 30}, {31, 32}, {40, 63}};
  int total = 0;
  for (int q = 0; q < 5; q++) {
    int lo = queries[q][0], hi = queries[q][1], slow = a[lo];
    for (int i = lo; i <= hi; i++) if (a[i] < slow) slow = a[i];
    int fast = range_min(lo, hi);
    printf("min[%d,%d] = %d %s\n", lo, hi, fast, fast == slow ? "ok" : "BAD");
    total += fast;
  }
  return (total + mismatches) & 0xFF;
}
