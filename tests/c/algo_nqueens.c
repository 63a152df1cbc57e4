/* N-queens by backtracking with bitmasks (counts for N = 1..9) and the first solution for 8. */
#include <stdio.h>

static long solutions;
static int board[16];

static void solve(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) { solutions++; return; }
  unsigned free_cells = ~(cols | d1 | d2) & ((1u << n) - 1);
  while (free_cells) {
    unsigned bit = free_cells & (0u - free_cells);
    free_cells ^= bit;
    solve(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
}

static int place(int n, int row) {
  if (row == n) return 1;
  for (int c = 0; c < n; c++) {
    int ok = 1;
    for (int r = 0; r < row && ok; r++) {
      int dc = board[r] - c;
      if (dc == 0 || dc == row - r || dc == r - row) ok = 0;
    }
    if (ok) {
      board[row] = c;
      if (place(n, row + 1)) return 1;
    }
  }
  return 0;
}

int main(void) {
  long total = 0;
  for (int n = 1; n <= 9; n++) {
    solutions = 0;
    solve(n, 0, 0, 0, 0);
    printf("queens(%d) = %ld\n", n, solutions);
    total += solutions;
  }
  if (place(8, 0)) {
    for (int r = 0; r < 8; r++) {
      for (int c = 0; c < 8; c++) putchar(board[r] == c ? 'Q' : '.');
      putchar('\n');
    }
  }
  return (int)(total % 256);
}
