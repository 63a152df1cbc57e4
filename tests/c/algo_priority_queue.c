/* A binary min-heap priority queue of (priority, id) pairs in a malloc'd array: event
   simulation that processes jobs in priority order with ties broken by insertion order. */
#include <stdio.h>
#include <stdlib.h>

struct job { int prio; int seq; int id; };
struct heap { struct job *a; int n, cap; };

static int before(const struct job *x, const struct job *y) {
  return x->prio != y->prio ? x->prio < y->prio : x->seq < y->seq;
}

static void heap_push(struct heap *h, struct job j) {
  if (h->n == h->cap) {
    h->cap = h->cap ? h->cap * 2 : 4;
    h->a = realloc(h->a, sizeof(struct job) * (size_t)h->cap);
  }
  int i = h->n++;
  while (i > 0 && before(&j, &h->a[(i - 1) / 2])) {
    h->a[i] = h->a[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->a[i] = j;
}

static struct job heap_pop(struct heap *h) {
  struct job top = h->a[0], last = h->a[--h->n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && before(&h->a[c + 1], &h->a[c])) c++;
    if (!before(&h->a[c], &last)) break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n > 0) h->a[i] = last;
  return top;
}

int main(void) {
  struct heap h = {0, 0, 0};
  int seq = 0;
  unsigned s = 31337;
  for (int id = 0; id < 12; id++) {
    s = s * 1103515245u + 12345u;
    struct job j = {(int)((s >> 16) % 5), seq++, id};
    heap_push(&h, j);
  }
  long order = 0;
  int processed = 0;
  while (h.n > 0) {
    struct job j = heap_pop(&h);
    printf("job %2d prio %d seq %2d\n", j.id, j.prio, j.seq);
    order = order * 7 + j.id;
    processed++;
    /* Some jobs spawn a follow-up job with a lower priority. */
    if (j.id % 4 == 0 && j.prio < 4) {
      struct job f = {j.prio + 2, seq++, 100 + j.id};
      heap_push(&h, f);
    }
  }
  printf("processed %d order %ld capacity %d\n", processed, order, h.cap);
  free(h.a);
  return processed;
}
