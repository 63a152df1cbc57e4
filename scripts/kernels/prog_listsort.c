/* prog_listsort.c - linked lists: build a list of pseudo-random keys,
   sort it with a recursive merge sort on the list itself, check it,
   reverse it, and walk it; repeated. Lists, recursion, pointer writes. */
#include <stdlib.h>
#include "common.h"

struct cell { struct cell *next; long key; };

static struct cell *merge(struct cell *a, struct cell *b) {
  struct cell head, *tail = &head;
  while (a && b) {
    if (a->key <= b->key) { tail->next = a; a = a->next; }
    else { tail->next = b; b = b->next; }
    tail = tail->next;
  }
  tail->next = a ? a : b;
  return head.next;
}

static struct cell *sort(struct cell *list) {
  struct cell *slow = list, *fast, *second;
  if (!list || !list->next) return list;
  for (fast = list->next; fast && fast->next; fast = fast->next->next) slow = slow->next;
  second = slow->next;
  slow->next = 0;
  return merge(sort(list), sort(second));
}

static struct cell *reverse(struct cell *list) {
  struct cell *out = 0;
  while (list) { struct cell *next = list->next; list->next = out; out = list; list = next; }
  return out;
}

int main(int argc, char **argv) {
  long rounds = kernel_scale(argc, argv, 8), r, n = 100000, i, check = 0;
  struct cell *cells = malloc(sizeof *cells * (size_t)n), *list, *p;
  unsigned long seed = 11;
  for (r = 0; r < rounds; r++) {
    list = 0;
    for (i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ul + 1442695040888963407ul;
      cells[i].key = (long)(seed >> 35);
      cells[i].next = list;
      list = &cells[i];
    }
    list = sort(list);
    for (p = list; p->next; p = p->next)
      if (p->key > p->next->key) { printf("not sorted\n"); return 1; }
    list = reverse(list);
    for (p = list, i = 0; p; p = p->next, i++) check += p->key % 1000 * (i % 3);
  }
  printf("listsort %ld\n", check);
  free(cells);
  return 0;
}
