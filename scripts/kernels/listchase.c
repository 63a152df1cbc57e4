/* listchase.c - pointer chasing: a linked list in shuffled order, walked
   many times. */
#include <stdlib.h>
#include "common.h"

struct node { struct node *next; long value; };

int main(int argc, char **argv) {
  long reps = kernel_scale(argc, argv, 200), r, i;
  long n = 50000;
  struct node *nodes = malloc(sizeof(struct node) * (size_t)n);
  long *order = malloc(sizeof(long) * (size_t)n);
  unsigned long seed = 12345;
  long sum = 0;
  struct node *p;
  for (i = 0; i < n; i++) order[i] = i;
  for (i = n - 1; i > 0; i--) {
    long j, t;
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    j = (long)((seed >> 33) % (unsigned long)(i + 1));
    t = order[i]; order[i] = order[j]; order[j] = t;
  }
  for (i = 0; i < n; i++) {
    nodes[order[i]].value = i;
    nodes[order[i]].next = i + 1 < n ? &nodes[order[i + 1]] : 0;
  }
  for (r = 0; r < reps; r++)
    for (p = &nodes[order[0]]; p; p = p->next) sum += p->value ^ r;
  printf("listchase %ld\n", sum);
  free(order);
  free(nodes);
  return 0;
}
