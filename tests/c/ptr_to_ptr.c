/* Pointers to pointers: modifying callers' pointers, arrays of pointers, three levels of indirection. */
#include <stdio.h>
#include <stdlib.h>

static void advance(const char **pp, int n) { *pp += n; }

static void set_to_max(int **slot, int *a, int *b) { *slot = *a > *b ? a : b; }

static int **make_grid(int rows, int cols) {
  int **g = malloc(sizeof(int *) * (size_t)rows);
  for (int r = 0; r < rows; r++) {
    g[r] = malloc(sizeof(int) * (size_t)cols);
    for (int c = 0; c < cols; c++) g[r][c] = r * cols + c;
  }
  return g;
}

static void free_grid(int **g, int rows) {
  for (int r = 0; r < rows; r++) free(g[r]);
  free(g);
}

int main(void) {
  const char *text = "pointer to pointer";
  const char *cursor = text;
  advance(&cursor, 8);
  printf("%s\n", cursor);
  int x = 3, y = 9;
  int *best = NULL;
  set_to_max(&best, &x, &y);
  *best += 100;
  printf("x %d y %d\n", x, y);
  int v = 1;
  int *pv = &v;
  int **ppv = &pv;
  int ***pppv = &ppv;
  ***pppv = 77;
  **ppv += 1;
  printf("v %d\n", v);
  int w = 5;
  **pppv = &w;
  ***pppv *= 3;
  printf("w %d *pv %d\n", w, *pv);
  int **grid = make_grid(4, 5);
  int sum = 0;
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 5; c++) sum += grid[r][c] * (r + 1);
  int *row2 = *(grid + 2);
  printf("sum %d row2[3] %d grid[3][4] %d\n", sum, row2[3], *(*(grid + 3) + 4));
  /* Swap rows by swapping pointers. */
  int *tmp = grid[0];
  grid[0] = grid[3];
  grid[3] = tmp;
  printf("after swap %d %d\n", grid[0][0], grid[3][0]);
  free_grid(grid, 4);
  /* Array of string pointers sorted by pointer swaps. */
  const char *names[] = {"delta", "alpha", "charlie", "bravo"};
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++)
      if (names[j][0] < names[i][0]) {
        const char *t = names[i];
        names[i] = names[j];
        names[j] = t;
      }
  for (const char **np = names; np < names + 4; np++) printf("%s ", *np);
  printf("\n");
  return sum % 256;
}
