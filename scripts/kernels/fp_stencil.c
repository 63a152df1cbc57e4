/* fp_stencil.c - floating point: Jacobi relaxation of a 2-D grid with a
   five-point stencil (two buffers swapped each sweep, fixed boundary), in
   double; the checksum sums the final grid with every digit. */
#include "common.h"

#define N 256
static double grid[2][N][N];

int main(int argc, char **argv) {
  long sweeps = kernel_scale(argc, argv, 200), s;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) grid[0][i][j] = grid[1][i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
  int cur = 0;
  for (s = 0; s < sweeps; s++) {
    int nxt = 1 - cur;
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        grid[nxt][i][j] = 0.25 * (grid[cur][i - 1][j] + grid[cur][i + 1][j] + grid[cur][i][j - 1] +
                                  grid[cur][i][j + 1]);
    cur = nxt;
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += grid[cur][i][j];
  printf("fp_stencil sum %.17g\n", sum);
  return 0;
}
