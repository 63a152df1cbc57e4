/* hanoi.c - recursion: Towers of Hanoi, moves counted and checksummed; the
   second recursive call is in tail position (gcc turns it into a loop and
   inlines the recursion into itself). */
#include "common.h"

static unsigned long moves, check;

static void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  moves++;
  check = check * 31 + (unsigned long)(from * 3 + to);
  hanoi(n - 1, via, to, from);
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 24);
  hanoi((int)n, 0, 2, 1);
  printf("hanoi(%ld): %lu moves, check %lu\n", n, moves, check);
  return 0;
}
