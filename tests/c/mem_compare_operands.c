/* Compares with a memory operand (son-lower-x64's if-compare-load and
   if-fcompare-load: cmp r, [p], cmp [p], imm, ucomisd x, [p]): loads of
   every integer width, signed and unsigned, on either side of the
   compare, against constants (those beyond 32 bits too), pointers against
   null, globals (RIP-relative), struct fields, doubles (a float) with
   NaNs and -0.0 on both sides and every C relation; loads followed in
   their block by a store or a call that may overwrite them (the compare
   must read the old value), and a compare whose value is also used. The
   status is the low bits of a checksum. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

static long g_limit = 1000;
static signed char g_sc = -5;
static double g_d = 2.5;
static float g_f = -0.0f;
static long g_counter;

struct item { short weight; unsigned char tag; long long key; struct item *next; };

#define NOINLINE __attribute__((noinline))

NOINLINE static int cmp_widths(signed char *a, unsigned char *b, short *c, unsigned short *d, int *e, unsigned *f,
                               long *g, unsigned long *h, long x) {
  int r = 0;
  if (*a < x) r |= 1; if (x < *b) r |= 2; if (*c <= (short)x) r |= 4;
  if (*d > (unsigned short)x) r |= 8; if ((int)x >= *e) r |= 16; if (*f != (unsigned)x) r |= 32;
  if (*g == x) r |= 64; if (*h < (unsigned long)x) r |= 128; if (*a == -1) r |= 256;
  if (*b > 200) r |= 512; if (*c < -300) r |= 1024; if (*d >= 65535) r |= 2048;
  if (*e != 0) r |= 4096; if (*f <= 7u) r |= 8192; if (*g > 4294967296L) r |= 16384;
  if (*h == 0x8000000000000000ul) r |= 32768; if (-2147483647L - 1 < *g) r |= 65536;
  return r;
}
NOINLINE static long count_below(const long *v, int n, long x) {
  long k = 0;
  for (int i = 0; i < n; i++)
    if (v[i] < x) k += i;
  return k;
}
NOINLINE static long walk(const struct item *p) {
  long s = 0;
  while (p != NULL) {
    if (p->weight > 10) s += p->weight;
    if (p->tag != 'x') s += p->tag;
    if (p->key < -5) s -= 1;
    p = p->next;
  }
  return s;
}
NOINLINE static int globals(long x) {
  int r = 0;
  if (x > g_limit) r |= 1; if (g_sc < x) r |= 2; if (g_sc == -5) r |= 4;
  if (g_d > (double)x) r |= 8; if ((float)x <= g_f) r |= 16;
  return r;
}
/* A store that may write the same memory (p == q) follows the load. */
NOINLINE static int before_store(long *p, long *q, long x) {
  long v = *p;
  *q = x + 100;
  if (v < x) return 1;
  return 2;
}
NOINLINE static void bump(void) { g_counter += 50; }
NOINLINE static int before_call(long x) {
  long v = g_counter;
  bump();
  if (v < x) return 1;
  return 2;
}
NOINLINE static int value_and_branch(int *p, int x) {
  int lt = *p < x;
  if (lt) return lt + 10;
  return lt + 20;
}
NOINLINE static int fcmp_d(const double *p, double x) {
  int r = 0;
  if (x < *p) r |= 1; if (x <= *p) r |= 2; if (x > *p) r |= 4;
  if (x >= *p) r |= 8; if (x == *p) r |= 16; if (x != *p) r |= 32;
  if (*p < x) r |= 64; if (*p <= x) r |= 128; if (*p > x) r |= 256;
  if (*p >= x) r |= 512; if (!(x < *p)) r |= 1024; if (!(*p >= x)) r |= 2048;
  if (isunordered(x, *p)) r |= 4096; if (isless(*p, x)) r |= 8192; if (isgreaterequal(x, *p)) r |= 16384;
  return r;
}
NOINLINE static int fbefore_store(double *p, double *q, double x) {
  double v = *p;
  *q = x + 1.0;
  return x < v ? 1 : 2;
}
int main(void) {
  unsigned long sum = 0;
  long xs[] = {-300, -6, -5, -1, 0, 1, 7, 10, 200, 255, 65535, 4294967296L, -2147483648L};
  for (int i = 0; i < (int)(sizeof xs / sizeof xs[0]); i++) {
    long x = xs[i];
    signed char a = (signed char)(x * 3); unsigned char b = (unsigned char)(x + 201);
    short c = (short)(x * -7); unsigned short d = (unsigned short)(x - 1);
    int e = (int)(x / 2); unsigned f = (unsigned)x;
    long g = x * 5 - 3; unsigned long h = (unsigned long)x << 40;
    sum = sum * 31 + (unsigned)cmp_widths(&a, &b, &c, &d, &e, &f, &g, &h, x);
    sum = sum * 31 + (unsigned)globals(x);
    long p = x, q = 0;
    sum = sum * 31 + (unsigned)before_store(&p, &p, x + 1) + (unsigned)before_store(&p, &q, x);
    int v = (int)x; sum = sum * 31 + (unsigned)value_and_branch(&v, 3);
  }
  g_counter = 20;
  sum = sum * 31 + (unsigned)before_call(40) + (unsigned)before_call(40) * 3;
  long vals[] = {5, -3, 9, 12, -20, 0, 7, 8, 100, -1};
  sum = sum * 31 + (unsigned long)count_below(vals, 10, 8);
  struct item n3 = {12, 'x', -9, NULL}, n2 = {3, 'a', 4, &n3}, n1 = {40, 'x', -6, &n2};
  sum = sum * 31 + (unsigned long)walk(&n1);
  double ds[] = {-1.5, 0.0, -0.0, 2.5, INFINITY, -INFINITY, NAN, 1e300, 5e-324};
  int nd = (int)(sizeof ds / sizeof ds[0]);
  for (int i = 0; i < nd; i++)
    for (int j = 0; j < nd; j++) sum = sum * 31 + (unsigned)fcmp_d(&ds[i], ds[j]);
  double p = 3.0;
  sum = sum * 31 + (unsigned)fbefore_store(&p, &p, 2.0) + (unsigned)fbefore_store(&p, &ds[0], 2.0);
  printf("%lu\n", sum);
  return (int)(sum & 0x3f);
}