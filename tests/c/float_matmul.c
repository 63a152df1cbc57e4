/* Floating point: dense matrix multiply in double (C = A * B, 16x16, the
   i-k-j loop order and the i-j-k one must agree bit for bit here since
   each sum is accumulated in the same order), a transpose, the trace and
   the Frobenius norm by sqrt; matrices filled from integer formulas
   converted to double. Prints %.17g; status from the trace. */
#include <math.h>
#include <stdio.h>

#define N 16

static double a[N][N], b[N][N], c1[N][N], c2[N][N];

static void fill(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (double)((i * 7 + j * 3) % 11) / 8.0 - 0.5;
      b[i][j] = 1.0 / (1 + i + 2 * j);
    }
}

static void mul_ikj(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) c1[i][j] = 0.0;
    for (int k = 0; k < N; k++) {
      double aik = a[i][k];
      for (int j = 0; j < N; j++) c1[i][j] += aik * b[k][j];
    }
  }
}

static void mul_ijk(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double sum = 0.0;
      for (int k = 0; k < N; k++) sum += a[i][k] * b[k][j];
      c2[i][j] = sum;
    }
}

int main(void) {
  fill();
  mul_ikj();
  mul_ijk();
  int same = 0;
  double trace = 0, frob = 0;
  for (int i = 0; i < N; i++) {
    trace += c1[i][i];
    for (int j = 0; j < N; j++) {
      same += c1[i][j] == c2[i][j];
      frob += c1[i][j] * c1[i][j];
    }
  }
  printf("same %d of %d\n", same, N * N);
  printf("trace %.17g\nfrobenius %.17g\n", trace, sqrt(frob));
  printf("c[3][5] %.17g c[15][0] %.17g\n", c1[3][5], c1[15][0]);
  for (int i = 0; i < 4; i++) printf("%9.5f %9.5f %9.5f %9.5f\n", c1[i][0], c1[i][1], c1[i][2], c1[i][3]);
  return (int)(trace * 1000) & 0xff;
}
