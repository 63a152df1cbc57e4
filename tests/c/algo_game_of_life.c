/* Conway's game of life on a 24x24 torus: a glider and a blinker, with generation checksums. */
#include <stdio.h>
#include <string.h>

#define W 24
#define H 24

static unsigned char grid[H][W], next_grid[H][W];

static int neighbours(int r, int c) {
  int n = 0;
  for (int dr = -1; dr <= 1; dr++)
    for (int dc = -1; dc <= 1; dc++)
      if (dr || dc) n += grid[(r + dr + H) % H][(c + dc + W) % W];
  return n;
}

static void step(void) {
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) {
      int n = neighbours(r, c);
      next_grid[r][c] = (unsigned char)(n == 3 || (n == 2 && grid[r][c]));
    }
  memcpy(grid, next_grid, sizeof grid);
}

static unsigned checksum(void) {
  unsigned h = 0;
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) h = h * 3 + grid[r][c];
  return h;
}

static int population(void) {
  int p = 0;
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) p += grid[r][c];
  return p;
}

static void show(int rows) {
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < W; c++) putchar(grid[r][c] ? '#' : '.');
    putchar('\n');
  }
}

int main(void) {
  static const int glider[5][2] = {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
  for (int i = 0; i < 5; i++) grid[glider[i][0]][glider[i][1]] = 1;
  grid[3][17] = grid[3][18] = grid[3][19] = 1;
  unsigned first = checksum();
  for (int gen = 1; gen <= 96; gen++) {
    step();
    if (gen % 16 == 0) printf("gen %d population %d checksum %u\n", gen, population(), checksum());
  }
  show(6);
  /* After 96 generations the glider is back where it started (24x24 torus, 4 steps per cell). */
  printf("back to start: %d\n", checksum() == first);
  return population();
}
