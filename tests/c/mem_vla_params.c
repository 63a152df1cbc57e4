/* VLA parameters (`int n, int a[n][n]`), pointers to VLA types, whose
   arithmetic scales by the run-time size, sizeof of VLA types and
   expressions (evaluated at run time, the operand's side effects once),
   typedefs of VLA types (their size fixed when the typedef is reached),
   and calls with stack arguments made after a VLA took stack space. */
#include <stdio.h>

static long trace(int n, int a[n][n]) {
  long t = 0;
  for (int i = 0; i < n; i++) t += a[i][i];
  return t + (long)sizeof a[0] + (long)sizeof(*a) / (long)sizeof(int);
}

static void transpose(int n, int m, int (*src)[m], int dst[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) dst[j][i] = src[i][j];
}

static long walk_rows(int n, int m, int (*p)[m]) {
  long s = 0;
  int (*end)[m] = p + n;
  for (int (*row)[m] = p; row < end; row++) s += (*row)[m - 1] * (long)(end - row);
  return s + (end - p);
}

static long many(long a, long b, long c, long d, long e, long f, long g, long h, long i) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i;
}

int main(void) {
  int n = 5, m = 3;
  int sq[n][n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) sq[i][j] = i * 10 + j;
  printf("trace %ld\n", trace(n, sq));

  int rect[n][m], back[m][n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) rect[i][j] = i * m + j;
  transpose(n, m, rect, back);
  printf("back[2][4] %d back[0][1] %d\n", back[2][4], back[0][1]);
  printf("rows %ld\n", walk_rows(n, m, rect));

  int k = 2;
  size_t s1 = sizeof(int[k + 1][m]);
  int calls = 0;
  size_t s2 = sizeof(rect[calls++]);  /* int[m], a VLA type: the operand is evaluated */
  int (*pv)[k + 3] = (int (*)[k + 3])sq;
  size_t s3 = sizeof(*pv);
  printf("sizes %zu %zu %zu calls %d pv[1][2] %d\n", s1, s2, s3, calls, pv[1][2]);

  typedef long Row[m];
  m = 100;  /* Row keeps the size it had when the typedef was reached */
  Row r;
  printf("sizeof Row %zu\n", sizeof(Row));
  r[2] = 7;

  char big[n * 100];
  for (int i = 0; i < n * 100; i++) big[i] = (char)i;
  printf("many %ld\n", many(big[1], big[2], big[3], r[2], 5, 6, 7, big[8], big[499]));
  return 0;
}
