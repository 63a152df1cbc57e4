/* Integer matrix algorithms: exact determinant by Bareiss elimination, matrix power for
   Fibonacci numbers mod 1e9+7, and a spiral traversal. */
#include <stdio.h>

#define N 5

static long long det_bareiss(long long m[N][N], int n) {
  long long prev = 1;
  int sign = 1;
  for (int k = 0; k < n - 1; k++) {
    if (m[k][k] == 0) {
      int swap = -1;
      for (int r = k + 1; r < n; r++) if (m[r][k] != 0) { swap = r; break; }
      if (swap < 0) return 0;
      for (int c = 0; c < n; c++) { long long t = m[k][c]; m[k][c] = m[swap][c]; m[swap][c] = t; }
      sign = -sign;
    }
    for (int i = k + 1; i < n; i++)
      for (int j = k + 1; j < n; j++) m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) / prev;
    prev = m[k][k];
  }
  return sign * m[n - 1][n - 1];
}

typedef unsigned long long u64;
static const u64 MOD = 1000000007ull;

static void mat2_mul(u64 r[2][2], u64 a[2][2], u64 b[2][2]) {
  u64 t[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) t[i][j] = (a[i][0] * b[0][j] + a[i][1] * b[1][j]) % MOD;
  for (int i = 0; i < 2; i++) for (int j = 0; j < 2; j++) r[i][j] = t[i][j];
}

static u64 fib_mod(u64 n) {
  u64 result[2][2] = {{1, 0}, {0, 1}}, base[2][2] = {{1, 1}, {1, 0}};
  while (n) {
    if (n & 1) mat2_mul(result, result, base);
    mat2_mul(base, base, base);
    n >>= 1;
  }
  return result[0][1];
}

int main(void) {
  long long a[N][N] = {{2, -1, 0, 3, 1}, {4, 1, -2, 0, 5}, {0, 3, 1, -1, 2}, {1, 0, 4, 2, -3}, {-2, 5, 1, 1, 0}};
  long long b[N][N] = {{0, 1, 2, 3, 4}, {1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}, {0, 0, 0, 0, 1}, {7, 0, 0, 1, 0}};
  long long id[N][N] = {{0}};
  for (int i = 0; i < N; i++) id[i][i] = i + 1;
  long long da = det_bareiss(a, N), db = det_bareiss(b, N), di = det_bareiss(id, N);
  printf("det a %lld det b %lld det diag %lld\n", da, db, di);
  u64 ns[] = {1, 2, 10, 50, 90, 1000, 1000000000000ull};
  for (int i = 0; i < 7; i++) printf("fib(%llu) mod p = %llu\n", ns[i], fib_mod(ns[i]));
  int grid[4][6], v = 0;
  for (int r = 0; r < 4; r++) for (int c = 0; c < 6; c++) grid[r][c] = v++;
  int top = 0, bottom = 3, left = 0, right = 5;
  while (top <= bottom && left <= right) {
    for (int c = left; c <= right; c++) printf("%d ", grid[top][c]);
    top++;
    for (int r = top; r <= bottom; r++) printf("%d ", grid[r][right]);
    right--;
    if (top <= bottom) { for (int c = right; c >= left; c--) printf("%d ", grid[bottom][c]); bottom--; }
    if (left <= right) { for (int r = bottom; r >= top; r--) printf("%d ", grid[r][left]); left++; }
  }
  printf("\n");
  return (int)((da + db) & 0xFF);
}
