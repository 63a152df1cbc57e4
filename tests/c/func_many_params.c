/* Functions with many parameters of mixed types (several go on the stack in the SysV ABI), and
   printf with many arguments. */
#include <stdio.h>

static long mix10(char a, short b, int c, long d, long long e, unsigned char f, unsigned short g,
                  unsigned int h, unsigned long i, int j) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * (long)h + 9 * (long)i + 10 * j;
}

static int sum12(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) {
  return a - b + c - d + e - f + g - h + i - j + k - l;
}

struct pt { int x, y; };
static int with_structs(int a, struct pt p, int b, struct pt q, int c, struct pt r, long d) {
  return a + p.x * p.y + b + q.x * q.y + c + r.x * r.y + (int)d;
}

static const char *pick(int n, const char *a, const char *b, const char *c, const char *d,
                        const char *e, const char *f, const char *g, const char *h) {
  switch (n) {
  case 0: return a; case 1: return b; case 2: return c; case 3: return d;
  case 4: return e; case 5: return f; case 6: return g; default: return h;
  }
}

/* Recursion passing many parameters along. */
static long chain(int n, long a, long b, long c, long d, long e, long f, long g) {
  if (n == 0) return a + b + c + d + e + f + g;
  return chain(n - 1, b, c, d, e, f, g, a + 1);
}

int main(void) {
  long m = mix10(-1, -2, -3, -4, -5, 250, 65000, 4000000000u, 10000000000ul, -10);
  printf("mix10 %ld\n", m);
  printf("sum12 %d\n", sum12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  struct pt p = {2, 3}, q = {4, 5}, r = {-6, 7};
  printf("with_structs %d\n", with_structs(1, p, 10, q, 100, r, 1000));
  for (int i = 0; i < 9; i++)
    printf("%s ", pick(i, "zero", "one", "two", "three", "four", "five", "six", "seven"));
  printf("\n");
  printf("chain %ld\n", chain(100, 1, 2, 3, 4, 5, 6, 7));
  printf("%d %ld %u %lld %c %s %x %hd %hhu %lu %d %d %d\n", 1, 2L, 3u, 4LL, '5', "six", 7u,
         (short)8, (unsigned char)9, 10ul, 11, 12, 13);
  return (int)(m % 256);
}
