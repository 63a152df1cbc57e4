/* Deep recursion: 50000 frames for a linked sum, 30000 for a recursive string length, and a
   recursion depth that depends on the data. */
#include <stdio.h>
#include <stdlib.h>

struct cell { int value; struct cell *next; };

static long sum_list(const struct cell *c) { return c ? c->value + sum_list(c->next) : 0; }

static int depth_sum(int n) {
  if (n == 0) return 0;
  return (n % 7) + depth_sum(n - 1);
}

static unsigned long long count_down(unsigned long long n, unsigned long long acc) {
  if (n == 0) return acc;
  return count_down(n - 1, acc * 31 + n);
}

static int rec_strlen(const char *s) { return *s ? 1 + rec_strlen(s + 1) : 0; }

int main(void) {
  enum { N = 50000 };
  struct cell *cells = malloc(sizeof(struct cell) * N);
  for (int i = 0; i < N; i++) {
    cells[i].value = i % 100;
    cells[i].next = i + 1 < N ? &cells[i + 1] : NULL;
  }
  long s = sum_list(cells);
  printf("sum_list %ld\n", s);
  printf("depth_sum %d\n", depth_sum(40000));
  printf("count_down %llu\n", count_down(30000, 1));
  char *text = malloc(30001);
  for (int i = 0; i < 30000; i++) text[i] = (char)('a' + i % 26);
  text[30000] = 0;
  printf("rec_strlen %d\n", rec_strlen(text));
  free(text);
  free(cells);
  return (int)(s % 256);
}
