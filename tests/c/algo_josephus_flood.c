/* The Josephus problem by simulation on a circular array and by recurrence, and a recursive
   flood fill counting regions in a character map. */
#include <stdio.h>

static int josephus_sim(int n, int k) {
  int alive[100], count = n, pos = 0;
  for (int i = 0; i < n; i++) alive[i] = 1;
  int last = -1;
  while (count > 0) {
    int steps = k;
    for (;;) {
      if (alive[pos]) {
        if (--steps == 0) break;
      }
      pos = (pos + 1) % n;
    }
    alive[pos] = 0;
    last = pos;
    count--;
  }
  return last;
}

static int josephus_rec(int n, int k) { return n == 1 ? 0 : (josephus_rec(n - 1, k) + k) % n; }

static char map[8][17] = {
    "..##....###.....",
    ".###...##.#..#..",
    "..#....#..#.###.",
    "......##..#..#..",
    "##.........#....",
    "#..###.....##...",
    "...#.#......#..#",
    "...###.........#",
};

static int fill(int r, int c, char mark) {
  if (r < 0 || r >= 8 || c < 0 || c >= 16 || map[r][c] != '#') return 0;
  map[r][c] = mark;
  return 1 + fill(r + 1, c, mark) + fill(r - 1, c, mark) + fill(r, c + 1, mark) + fill(r, c - 1, mark);
}

int main(void) {
  int mismatches = 0;
  for (int n = 1; n <= 40; n += 3)
    for (int k = 1; k <= 5; k++) mismatches += josephus_sim(n, k) != josephus_rec(n, k);
  printf("josephus(41, 3) = %d, mismatches %d\n", josephus_rec(41, 3) + 1, mismatches);
  int regions = 0, biggest = 0;
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 16; c++) {
      int size = fill(r, c, (char)('a' + regions));
      if (size) {
        regions++;
        if (size > biggest) biggest = size;
      }
    }
  for (int r = 0; r < 8; r++) printf("%s\n", map[r]);
  printf("regions %d biggest %d\n", regions, biggest);
  return regions * 10 + biggest;
}
