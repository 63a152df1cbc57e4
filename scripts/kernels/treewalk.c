/* treewalk.c - recursion over a binary tree: a perfect tree built in an
   array, walked recursively many times (sum, depth-weighted sum, count of
   leaves above a bound); each walk has two recursive calls, the second in
   tail position of a sum. Dispatch through a `static const` table of
   walkers at constant indexes (devirtualization). */
#include <stdlib.h>
#include "common.h"

struct node { struct node *left, *right; long value; };

static long sum(const struct node *t) { return t ? t->value + sum(t->left) + sum(t->right) : 0; }

static long weighted(const struct node *t, long depth) {
  if (!t) return 0;
  return t->value * depth + weighted(t->left, depth + 1) + weighted(t->right, depth + 1);
}

static long leaves_above(const struct node *t, long bound) {
  if (!t) return 0;
  if (!t->left && !t->right) return t->value > bound;
  return leaves_above(t->left, bound) + leaves_above(t->right, bound);
}

static long walk_sum(const struct node *t) { return sum(t); }
static long walk_weighted(const struct node *t) { return weighted(t, 1); }
static long walk_leaves(const struct node *t) { return leaves_above(t, 500); }
static long (*const walkers[])(const struct node *) = {walk_sum, walk_weighted, walk_leaves};

int main(int argc, char **argv) {
  long reps = kernel_scale(argc, argv, 100), r;
  long n = (1L << 16) - 1, i;
  struct node *nodes = malloc(sizeof(struct node) * (size_t)n);
  unsigned long seed = 2026;
  for (i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    nodes[i].value = (long)((seed >> 33) % 1000);
    nodes[i].left = 2 * i + 1 < n ? &nodes[2 * i + 1] : 0;
    nodes[i].right = 2 * i + 2 < n ? &nodes[2 * i + 2] : 0;
  }
  unsigned long check = 0;
  for (r = 0; r < reps; r++) {
    check = check * 7 + (unsigned long)walkers[0](nodes);
    check = check * 7 + (unsigned long)walkers[1](nodes);
    check = check * 7 + (unsigned long)walkers[2](nodes);
    nodes[r % n].value ^= 1;
  }
  printf("treewalk(%ld): %lu\n", reps, check);
  free(nodes);
  return 0;
}
