/* prog_nqueens.c - every placement of n queens, by recursive
   backtracking over bit masks of the attacked columns and diagonals,
   and a second count with arrays (the textbook form). Recursion, bits. */
#include "common.h"

static long solve_bits(unsigned all, unsigned cols, unsigned left, unsigned right) {
  unsigned free_cells;
  long count = 0;
  if (cols == all) return 1;
  free_cells = all & ~(cols | left | right);
  while (free_cells) {
    unsigned bit = free_cells & -free_cells;
    free_cells -= bit;
    count += solve_bits(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
  }
  return count;
}

static int row_of[32];

static int safe(int row, int col) {
  int r;
  for (r = 0; r < row; r++) {
    int c = row_of[r];
    if (c == col || c - col == r - row || c - col == row - r) return 0;
  }
  return 1;
}

static long solve_array(int n, int row) {
  long count = 0;
  int col;
  if (row == n) return 1;
  for (col = 0; col < n; col++)
    if (safe(row, col)) {
      row_of[row] = col;
      count += solve_array(n, row + 1);
    }
  return count;
}

int main(int argc, char **argv) {
  int n = (int)kernel_scale(argc, argv, 14);
  if (n > 16) n = 16;
  printf("queens(%d) by bits: %ld\n", n, solve_bits((1u << n) - 1, 0, 0, 0));
  printf("queens(%d) by rows: %ld\n", n - 1, solve_array(n - 1, 0));
  return 0;
}
