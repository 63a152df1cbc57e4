/* exit() called from deep inside nested calls: output printed so far is kept, atexit-free,
   and the status is exit's argument (here a computed one). */
#include <stdio.h>
#include <stdlib.h>

static int visited;

static void check(int depth, int limit, int code) {
  visited++;
  if (depth > 1000) return;
  if (depth == limit) {
    printf("exiting at depth %d with %d after %d visits\n", depth, code, visited);
    exit(code);
  }
  check(depth + 1, limit, code + depth);
  printf("never printed\n");
}

static int validate(const int *v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i] < 0) return i;
  return -1;
}

int main(void) {
  int data[] = {5, 8, 13, 21, -34, 55};
  int bad = validate(data, 6);
  printf("first negative at %d\n", bad);
  int partial = 0;
  for (int i = 0; i < bad; i++) partial += data[i];
  printf("partial %d\n", partial);
  if (bad >= 0) check(0, 20, partial);
  printf("not reached\n");
  return 0;
}
