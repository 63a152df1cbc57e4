/* memcpy, memmove and memset of a constant size up to 32 bytes become the
   IR's copy and stores in sonopt (stages/sonopt/libcalls.cpp): every size
   0 to 33, overlapping memmove both ways, structs copied through pointers and
   between locals (which scalar-replace then keeps in registers), memset with
   zero, 0xab and a value whose high bits must be dropped. */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct mixed { char c; short s; int i; long l; double d; };

static unsigned hash = 2166136261u;
static void mix(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) hash = (hash ^ b[i]) * 16777619u;
}

static void fill(unsigned char *b, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(seed + i * 7);
}

#define COPY_SIZE(N)                                  \
  do {                                                \
    unsigned char s[40], d[40];                       \
    fill(s, 40, N);                                   \
    fill(d, 40, 100 + N);                             \
    void *r = memcpy(d + 1, s + 2, N);                \
    mix(d, 40);                                       \
    mix(&(long){(char *)r - (char *)d}, sizeof(long)); \
    fill(d, 40, N);                                   \
    r = memmove(d + 3, d, N);                         \
    mix(d, 40);                                       \
    mix(&(long){(char *)r - (char *)d}, sizeof(long)); \
    fill(d, 40, N + 1);                               \
    memmove(d, d + 5, N);                             \
    mix(d, 40);                                       \
    memset(d + 2, 0, (N));                            \
    mix(d, 40);                                       \
    r = memset(d + 1, 0xab, (N));                    \
    mix(d, 40);                                       \
    mix(&(long){(char *)r - (char *)d}, sizeof(long)); \
    memset(d, 0x1234, (N));                          \
    mix(d, 40);                                       \
    printf("size %2d: %08x\n", N, hash);              \
  } while (0)

__attribute__((noinline)) static int sum_point(const struct point *q) {
  struct point p;
  memcpy(&p, q, sizeof p);
  return p.x + p.y;
}

__attribute__((noinline)) static long swap_mixed(struct mixed *a, struct mixed *b) {
  struct mixed t;
  memcpy(&t, a, sizeof t);
  memcpy(a, b, sizeof t);
  memcpy(b, &t, sizeof t);
  return a->l - b->l + a->c + b->s;
}

__attribute__((noinline)) static int locals(int a, int b) {
  struct point p = {a, b}, q;
  memcpy(&q, &p, sizeof q);
  q.x += 1;
  memcpy(&p, &q, sizeof p);
  struct point z;
  memset(&z, 0, sizeof z);
  return p.x * 3 + p.y + z.x + z.y;
}

__attribute__((noinline)) static double bits(long v) {
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}

int main(void) {
  COPY_SIZE(0); COPY_SIZE(1); COPY_SIZE(2); COPY_SIZE(3); COPY_SIZE(4); COPY_SIZE(5); COPY_SIZE(6);
  COPY_SIZE(7); COPY_SIZE(8); COPY_SIZE(9); COPY_SIZE(11); COPY_SIZE(12); COPY_SIZE(13); COPY_SIZE(15);
  COPY_SIZE(16); COPY_SIZE(17); COPY_SIZE(23); COPY_SIZE(24); COPY_SIZE(31); COPY_SIZE(32); COPY_SIZE(33);
  struct point p = {3, 4};
  printf("sum_point %d\n", sum_point(&p));
  struct mixed a = {1, 2, 3, 4, 5.5}, b = {6, 7, 8, 9, 10.5};
  long r = swap_mixed(&a, &b);
  printf("swap_mixed %ld %d %g %d %g\n", r, a.i, a.d, b.i, b.d);
  printf("locals %d\n", locals(5, 6));
  printf("bits %g\n", bits(0x4009000000000000L));
  return 0;
}
