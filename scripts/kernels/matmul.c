/* matmul.c - nested loops over arrays: integer matrix product. */
#include "common.h"

#define N 160
static int a[N][N], b[N][N], c[N][N];

int main(int argc, char **argv) {
  long reps = kernel_scale(argc, argv, 100), r;
  int i, j, k;
  unsigned sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      a[i][j] = (i * 7 + j * 3) % 17 - 8;
      b[i][j] = (i * 5 + j * 11) % 13 - 6;
    }
  for (r = 0; r < reps; r++) {
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
        int s = 0;
        for (k = 0; k < N; k++) s += a[i][k] * b[k][j];
        c[i][j] = s + (int)r;
      }
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) sum = sum * 31u + (unsigned)c[i][j];
  }
  printf("matmul checksum %u\n", sum);
  return 0;
}
