/* prog_binarytrees.c - the benchmarks game's binary-trees: allocate many
   short-lived trees with malloc, walk them recursively, free them, while
   one long-lived tree stays. Allocation, recursion, pointer chasing. */
#include <stdlib.h>
#include "common.h"

struct tree { struct tree *left, *right; };

static struct tree *make(int depth) {
  struct tree *t = malloc(sizeof *t);
  if (depth > 0) {
    t->left = make(depth - 1);
    t->right = make(depth - 1);
  } else {
    t->left = t->right = 0;
  }
  return t;
}

static long check(const struct tree *t) {
  return t->left ? 1 + check(t->left) + check(t->right) : 1;
}

static void release(struct tree *t) {
  if (t->left) {
    release(t->left);
    release(t->right);
  }
  free(t);
}

int main(int argc, char **argv) {
  int max_depth = (int)kernel_scale(argc, argv, 16), depth;
  struct tree *stretch, *longlived;
  if (max_depth < 6) max_depth = 6;
  stretch = make(max_depth + 1);
  printf("stretch tree of depth %d\t check: %ld\n", max_depth + 1, check(stretch));
  release(stretch);
  longlived = make(max_depth);
  for (depth = 4; depth <= max_depth; depth += 2) {
    long iterations = 1L << (max_depth - depth + 4), i, sum = 0;
    for (i = 0; i < iterations; i++) {
      struct tree *t = make(depth);
      sum += check(t);
      release(t);
    }
    printf("%ld\t trees of depth %d\t check: %ld\n", iterations, depth, sum);
  }
  printf("long lived tree of depth %d\t check: %ld\n", max_depth, check(longlived));
  release(longlived);
  return 0;
}
