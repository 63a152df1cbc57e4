/* void pointers: generic swap, generic reverse and generic max via memcpy and byte pointers. */
#include <stdio.h>
#include <string.h>

static void swap_bytes(void *a, void *b, size_t size) {
  unsigned char *p = a, *q = b;
  for (size_t i = 0; i < size; i++) {
    unsigned char t = p[i];
    p[i] = q[i];
    q[i] = t;
  }
}

static void reverse(void *base, size_t n, size_t size) {
  char *lo = base, *hi = (char *)base + (n - 1) * size;
  while (lo < hi) {
    swap_bytes(lo, hi, size);
    lo += size;
    hi -= size;
  }
}

static const void *max_elem(const void *base, size_t n, size_t size,
                            int (*less)(const void *, const void *)) {
  const char *best = base;
  for (size_t i = 1; i < n; i++) {
    const char *cur = (const char *)base + i * size;
    if (less(best, cur)) best = cur;
  }
  return best;
}

static int less_int(const void *a, const void *b) { return *(const int *)a < *(const int *)b; }
static int less_short(const void *a, const void *b) { return *(const short *)a < *(const short *)b; }

struct rec { int key; char tag[6]; };
static int less_rec(const void *a, const void *b) {
  return ((const struct rec *)a)->key < ((const struct rec *)b)->key;
}

int main(void) {
  int ints[6] = {4, -2, 17, 8, 0, 9};
  short shorts[5] = {-300, 200, 1000, -5, 999};
  struct rec recs[3] = {{5, "five"}, {12, "twelve"}, {-1, "minus"}};
  reverse(ints, 6, sizeof ints[0]);
  reverse(shorts, 5, sizeof shorts[0]);
  reverse(recs, 3, sizeof recs[0]);
  for (int i = 0; i < 6; i++) printf("%d ", ints[i]);
  printf("\n");
  for (int i = 0; i < 5; i++) printf("%d ", shorts[i]);
  printf("\n");
  for (int i = 0; i < 3; i++) printf("%d:%s ", recs[i].key, recs[i].tag);
  printf("\n");
  const int *mi = max_elem(ints, 6, sizeof(int), less_int);
  const short *ms = max_elem(shorts, 5, sizeof(short), less_short);
  const struct rec *mr = max_elem(recs, 3, sizeof(struct rec), less_rec);
  printf("max int %d short %d rec %s\n", *mi, *ms, mr->tag);
  /* void* round trip and memcpy of a long long through a byte buffer. */
  long long v = -123456789012345LL, w = 0;
  unsigned char buf[sizeof v];
  void *vp = &v;
  memcpy(buf, vp, sizeof v);
  memcpy(&w, buf, sizeof w);
  printf("w %lld equal %d\n", w, memcmp(&v, &w, sizeof v) == 0);
  swap_bytes(&ints[0], &ints[5], sizeof(int));
  printf("swapped %d %d\n", ints[0], ints[5]);
  return *mi + *ms % 100;
}
