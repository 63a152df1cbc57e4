/* malloc and calloc whose address does not escape (sonopt's heap-to-stack,
   stages/sonopt/heap_to_stack.cpp): objects allocated, used and freed in a
   loop (their null tests assumed false), a calloc'd array read before and
   after writes, a buffer only written and freed, and allocations that must
   stay on the heap (returned, stored in a list, passed to a function, too
   large, of a size known only at run time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct obj { int a, b; long c; };
struct node { int value; struct node *next; };

static struct obj *obj_new(int i) {
  struct obj *o = malloc(sizeof *o);
  if (!o) return NULL;
  o->a = i; o->b = i * 2; o->c = (long)i * 1000003;
  return o;
}

static long obj_sum(const struct obj *o) { return o->a + o->b + o->c; }

static long temporaries(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    struct obj *o = obj_new(i);
    if (o == NULL) return -1;
    s += obj_sum(o);
    free(o);
  }
  return s;
}

static int zeroed(int k) {
  int *z = calloc(6, sizeof(int));
  int before = z[0] + z[5];
  z[k % 6] = k;
  z[2] += 3;
  int r = before + z[0] + z[1] + z[2] * 10 + z[k % 6] * 100;
  free(z);
  return r;
}

static void scribble(unsigned long n, int v) {
  int *p = malloc(n * sizeof(int));
  if (p) {
    for (unsigned long i = 0; i < n; i++) p[i] = v;
  }
  free(p);
}

static int *kept(int v) {
  int *p = malloc(sizeof *p);
  *p = v;
  return p;
}

static int big(int i) {
  char *p = malloc(400);
  memset(p, i, 400);
  int r = p[i] + p[399];
  free(p);
  return r;
}

int main(void) {
  printf("%ld\n", temporaries(1000));
  for (int k = 0; k < 8; k++) printf("%d ", zeroed(k));
  printf("\n");
  scribble(100, 7);
  int *q = kept(42);
  printf("%d %d\n", *q, big(5));
  free(q);
  struct node *list = NULL;
  for (int i = 0; i < 5; i++) {
    struct node *n = malloc(sizeof *n);
    n->value = i * i;
    n->next = list;
    list = n;
  }
  while (list) {
    struct node *next = list->next;
    printf("%d ", list->value);
    free(list);
    list = next;
  }
  printf("\n");
  return 0;
}
