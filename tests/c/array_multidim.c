/* Multi-dimensional arrays: 2D and 3D, row-major layout, matrix multiply, transpose. */
#include <stdio.h>

#define N 4

static void matmul(long c[N][N], long a[N][N], long b[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      long s = 0;
      for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}

static void transpose(long m[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      long t = m[i][j];
      m[i][j] = m[j][i];
      m[j][i] = t;
    }
}

static void print(long m[N][N]) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) printf("%6ld", m[i][j]);
    printf("\n");
  }
}

static long cube[3][4][5];

int main(void) {
  long a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = i * N + j;
      b[i][j] = (i == j) * 2 + (i + j) % 3;
    }
  matmul(c, a, b);
  print(c);
  transpose(c);
  print(c);
  /* Row-major layout: flat index agrees with [i][j]. */
  long *flat = &a[0][0];
  int agree = 1;
  for (int i = 0; i < N * N; i++) agree &= flat[i] == a[i / N][i % N];
  printf("layout agrees %d\n", agree);
  /* A 3D array filled and summed along each axis. */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 5; k++) cube[i][j][k] = i * 100 + j * 10 + k;
  long s0 = 0, s1 = 0, s2 = 0;
  for (int j = 0; j < 4; j++)
    for (int k = 0; k < 5; k++) s0 += cube[2][j][k];
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 5; k++) s1 += cube[i][1][k];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) s2 += cube[i][j][4];
  printf("sums %ld %ld %ld sizeof cube[1] %d\n", s0, s1, s2, (int)sizeof cube[1]);
  char board[3][3] = {{'x', 'o', 'x'}, {' ', 'x', 'o'}, {'o', ' ', 'x'}};
  int diag = board[0][0] == 'x' && board[1][1] == 'x' && board[2][2] == 'x';
  printf("diagonal win %d\n", diag);
  return (int)(c[1][2] + c[3][3]) % 256;
}
