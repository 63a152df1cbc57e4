/* A fixed-size ring buffer queue with unsigned wrapping indices (head and tail run freely and
   are masked), used as a producer/consumer pipe and for a sliding-window maximum. */
#include <stdio.h>

#define CAP 8u

struct ring { int data[CAP]; unsigned head, tail; };

static int push(struct ring *r, int v) {
  if (r->tail - r->head == CAP) return 0;
  r->data[r->tail++ & (CAP - 1)] = v;
  return 1;
}

static int pop(struct ring *r, int *v) {
  if (r->tail == r->head) return 0;
  *v = r->data[r->head++ & (CAP - 1)];
  return 1;
}

static unsigned size(const struct ring *r) { return r->tail - r->head; }

int main(void) {
  /* Start the indices near UINT_MAX so they wrap during the run. */
  struct ring r = {{0}, 4294967290u, 4294967290u};
  int produced = 0, consumed = 0, rejected = 0;
  long sum = 0;
  for (int round = 0; round < 40; round++) {
    for (int k = 0; k < round % 5; k++) {
      if (push(&r, produced)) produced++;
      else rejected++;
    }
    for (int k = 0; k < round % 3; k++) {
      int v;
      if (pop(&r, &v)) { consumed++; sum += v; }
    }
  }
  int v;
  while (pop(&r, &v)) { consumed++; sum += v; }
  printf("produced %d consumed %d rejected %d sum %ld size %u head %u\n", produced, consumed,
         rejected, sum, size(&r), r.head);
  /* Sliding-window maximum with a deque of indices kept in a ring. */
  int a[] = {1, 3, -1, -3, 5, 3, 6, 7, 2, 2, 9, 0, -4, 8, 1};
  int n = (int)(sizeof a / sizeof a[0]), w = 3;
  unsigned dq[16];
  unsigned front = 0, back = 0;
  int total = 0;
  for (int i = 0; i < n; i++) {
    while (back != front && dq[(back - 1) & 15] + (unsigned)w <= (unsigned)i) back--;
    while (back != front && dq[front & 15] + (unsigned)w <= (unsigned)i) front++;
    while (back != front && a[dq[(back - 1) & 15]] <= a[i]) back--;
    dq[back++ & 15] = (unsigned)i;
    if (i >= w - 1) {
      printf("%d ", a[dq[front & 15]]);
      total += a[dq[front & 15]];
    }
  }
  printf("\ntotal %d\n", total);
  return consumed + total;
}
