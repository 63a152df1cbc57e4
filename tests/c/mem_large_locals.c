/* Large local arrays and address-taken locals: a 64 KiB buffer on the stack, recursion where
   every frame owns its own array and passes pointers to it down, and locals reached only
   through pointers. */
#include <stdio.h>
#include <string.h>

static long fill_and_sum(int depth, long *parent) {
  long mine[256];
  for (int i = 0; i < 256; i++) mine[i] = depth * 1000 + i;
  if (parent) parent[depth % 256] += mine[255];
  long s = 0;
  if (depth > 0) s = fill_and_sum(depth - 1, mine);
  /* The child wrote into this frame's array through the pointer. */
  for (int i = 0; i < 256; i++) s += mine[i] % 7;
  return s;
}

static void set_through(int *p, int v) { *p = v; }

static unsigned checksum(const unsigned char *p, size_t n) {
  unsigned h = 0;
  for (size_t i = 0; i < n; i++) h = h * 31 + p[i];
  return h;
}

int main(void) {
  unsigned char big[65536];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i * 7 + (i >> 8));
  printf("big checksum %u\n", checksum(big, sizeof big));
  memset(big + 1000, 0, 30000);
  printf("after memset %u\n", checksum(big, sizeof big));
  memmove(big + 10, big, 50000);
  printf("after memmove %u\n", checksum(big, sizeof big));
  long s = fill_and_sum(40, NULL);
  printf("fill_and_sum %ld\n", s);
  int a = 1, b = 2, c = 3;
  int *ps[3] = {&a, &b, &c};
  for (int i = 0; i < 3; i++) set_through(ps[i], *ps[(i + 1) % 3] * 10);
  printf("a %d b %d c %d\n", a, b, c);
  /* A local whose address escapes into a struct and is updated in a loop. */
  struct { int *counter; int step; } st;
  int count = 0;
  st.counter = &count;
  st.step = 3;
  for (int i = 0; i < 10; i++) *st.counter += st.step;
  printf("count %d\n", count);
  return (int)(s % 256);
}
