/* fp_matmul.c - floating point: a dense matrix product in double (i-k-j
   order, the inner loop a multiply-add over a row), repeated; the checksum
   sums the result with every digit. */
#include "common.h"

#define N 200
static double a[N][N], b[N][N], c[N][N];

int main(int argc, char **argv) {
  long reps = kernel_scale(argc, argv, 20), r;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (double)((i * 7 + j * 3) % 17 - 8) / 8.0;
      b[i][j] = (double)((i * 5 + j * 11) % 13 - 6) / 4.0;
    }
  double sum = 0.0;
  for (r = 0; r < reps; r++) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) c[i][j] = (double)r;
    for (int i = 0; i < N; i++)
      for (int k = 0; k < N; k++) {
        double aik = a[i][k];
        for (int j = 0; j < N; j++) c[i][j] += aik * b[k][j];
      }
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) sum += c[i][j];
  }
  printf("fp_matmul sum %.17g\n", sum);
  return 0;
}
