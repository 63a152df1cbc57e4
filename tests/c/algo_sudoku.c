/* A sudoku solver: backtracking over the cell with the fewest candidates, candidate sets as
   bitmasks, and a validity check of the solution. */
#include <stdio.h>

static int grid[81];
static long nodes;

static int candidates(int cell) {
  int r = cell / 9, c = cell % 9, used = 0;
  for (int i = 0; i < 9; i++) {
    used |= 1 << grid[r * 9 + i];
    used |= 1 << grid[i * 9 + c];
    used |= 1 << grid[(r / 3 * 3 + i / 3) * 9 + c / 3 * 3 + i % 3];
  }
  return ~used & 0x3FE;
}

static int popcount(int x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }

static int solve(void) {
  nodes++;
  int best = -1, best_mask = 0, best_count = 10;
  for (int cell = 0; cell < 81; cell++) {
    if (grid[cell]) continue;
    int m = candidates(cell), n = popcount(m);
    if (n < best_count) { best = cell; best_mask = m; best_count = n; }
    if (n == 0) return 0;
  }
  if (best < 0) return 1;
  for (int d = 1; d <= 9; d++)
    if (best_mask & (1 << d)) {
      grid[best] = d;
      if (solve()) return 1;
    }
  grid[best] = 0;
  return 0;
}

static int valid(void) {
  for (int i = 0; i < 9; i++) {
    int row = 0, col = 0, box = 0;
    for (int j = 0; j < 9; j++) {
      row |= 1 << grid[i * 9 + j];
      col |= 1 << grid[j * 9 + i];
      box |= 1 << grid[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3];
    }
    if (row != 0x3FE || col != 0x3FE || box != 0x3FE) return 0;
  }
  return 1;
}

int main(void) {
  const char *puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
  for (int i = 0; i < 81; i++) grid[i] = puzzle[i] == '.' ? 0 : puzzle[i] - '0';
  int solved = solve();
  printf("solved %d valid %d nodes %ld\n", solved, valid(), nodes);
  for (int r = 0; r < 9; r++) {
    for (int c = 0; c < 9; c++) printf("%d%s", grid[r * 9 + c], c % 3 == 2 && c < 8 ? " | " : " ");
    printf("\n");
    if (r % 3 == 2 && r < 8) printf("------+-------+------\n");
  }
  return grid[40] + grid[80] * 10;
}
