/* alloca and __builtin_alloca: blocks 16-byte aligned, live until the
   function returns, several in one frame (in a loop), calls with stack
   arguments after them, and a function called many times whose blocks
   must be freed at each return. */
#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long sum9(long a, long b, long c, long d, long e, long f, long g, long h, long i) {
  return a - b + c - d + e - f + g - h + i;
}

/* n blocks, all live together: each is written, then all are read. */
static long blocks(int n) {
  long *p[16];
  int misaligned = 0;
  for (int i = 0; i < n; i++) {
    p[i] = alloca((size_t)(i * 8 + 3 + 8));
    misaligned |= (int)((uintptr_t)p[i] & 15);
    for (int j = 0; j <= i; j++) p[i][j] = i * 100 + j;
  }
  long s = sum9(p[0][0], p[1][1], p[2][2], p[3][0], n, p[n - 1][n - 1], 7, 8, p[4][3]);
  for (int i = 0; i < n; i++) s += p[i][i];
  return s * 2 + misaligned;
}

static unsigned checksum(const char *text) {
  size_t len = strlen(text);
  char *copy = __builtin_alloca(len + 1);
  memcpy(copy, text, len + 1);
  unsigned h = 5381;
  for (char *c = copy; *c; c++) h = h * 33 + (unsigned char)*c;
  return h;
}

int main(void) {
  long total = 0;
  for (int i = 0; i < 3000; i++) total += blocks(5 + i % 11);  /* freed at each return */
  printf("blocks %ld\n", total);
  unsigned h = 0;
  for (int i = 0; i < 200; i++) h ^= checksum("the quick brown fox jumps over the lazy dog") + (unsigned)i;
  printf("checksum %u\n", h);
  char *z = alloca(0);
  printf("zero-size block %s\n", z ? "ok" : "null");
  return 0;
}
