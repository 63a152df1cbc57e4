/* An LRU cache of fixed capacity: a doubly linked recency list over a node pool (array indices
   as links) and a direct-mapped key index; counts hits and misses on an access trace. */
#include <stdio.h>

#define CAP 5
#define KEYS 64

struct slot { int key, value, prev, next; };

static struct slot pool[CAP];
static int where[KEYS];   /* key -> slot + 1, 0 if absent */
static int head = -1, tail = -1, used;

static void unlink_slot(int s) {
  if (pool[s].prev >= 0) pool[pool[s].prev].next = pool[s].next; else head = pool[s].next;
  if (pool[s].next >= 0) pool[pool[s].next].prev = pool[s].prev; else tail = pool[s].prev;
}

static void push_front(int s) {
  pool[s].prev = -1;
  pool[s].next = head;
  if (head >= 0) pool[head].prev = s;
  head = s;
  if (tail < 0) tail = s;
}

static int get(int key, int *hit) {
  int s = where[key] - 1;
  if (s >= 0) {
    *hit = 1;
    unlink_slot(s);
    push_front(s);
    return pool[s].value;
  }
  *hit = 0;
  if (used < CAP) s = used++;
  else {
    s = tail;
    unlink_slot(s);
    where[pool[s].key] = 0;
  }
  pool[s].key = key;
  pool[s].value = key * key + 1; /* the "expensive" computation */
  where[key] = s + 1;
  push_front(s);
  return pool[s].value;
}

static void show(void) {
  printf("  recency:");
  for (int s = head; s >= 0; s = pool[s].next) printf(" %d", pool[s].key);
  printf("\n");
}

int main(void) {
  int trace[] = {1, 2, 3, 1, 4, 5, 2, 6, 1, 7, 3, 3, 8, 1, 2, 9, 10, 1, 11, 12, 1, 2, 3, 4, 5};
  int n = (int)(sizeof trace / sizeof trace[0]);
  int hits = 0, misses = 0;
  long checksum = 0;
  for (int i = 0; i < n; i++) {
    int hit;
    int v = get(trace[i], &hit);
    hits += hit;
    misses += !hit;
    checksum += v;
    printf("get %2d -> %3d %s\n", trace[i], v, hit ? "hit" : "miss");
    if (i % 6 == 5) show();
  }
  show();
  printf("hits %d misses %d checksum %ld\n", hits, misses, checksum);
  return hits * 16 + misses;
}
