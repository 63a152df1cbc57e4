/* objalloc.c - objects allocated with malloc, used through small functions
   and freed in a loop (the classic object-instantiation benchmark): an
   optimizer that knows malloc and free keeps objects whose address does not
   escape in registers, and the allocation disappears; without it, every
   iteration calls malloc and free. */
#include <stdlib.h>

#include "common.h"

struct toggle {
  int state;
  long count;
};

struct nth_toggle {
  struct toggle base;
  int max, counter;
};

static struct toggle *toggle_new(int start) {
  struct toggle *t = malloc(sizeof *t);
  t->state = start;
  t->count = 0;
  return t;
}

static void toggle_activate(struct toggle *t) {
  t->state = !t->state;
  t->count++;
}

static struct nth_toggle *nth_toggle_new(int start, int max) {
  struct nth_toggle *t = malloc(sizeof *t);
  t->base.state = start;
  t->base.count = 0;
  t->max = max;
  t->counter = 0;
  return t;
}

static void nth_toggle_activate(struct nth_toggle *t) {
  if (++t->counter >= t->max) {
    t->base.state = !t->base.state;
    t->counter = 0;
  }
  t->base.count++;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 25000000);
  long sum = 0;
  for (long i = 0; i < n; i++) {
    struct toggle *t = toggle_new((int)(i & 1));
    for (int k = 0; k < (int)(i & 3); k++) toggle_activate(t);
    sum += t->state + t->count;
    free(t);
    struct nth_toggle *u = nth_toggle_new((int)(i & 1), 3);
    for (int k = 0; k < 5; k++) nth_toggle_activate(u);
    sum += u->base.state * 7 + u->counter;
    free(u);
  }
  printf("objalloc(%ld) = %ld\n", n, sum);
  return 0;
}
