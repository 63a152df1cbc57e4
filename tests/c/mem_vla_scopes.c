/* Variable length arrays and the stack they take: each VLA's storage is
   freed when its scope ends, by falling off the block, break, continue,
   goto (forwards out of the block, and backwards to before the
   declaration) and return. Each loop below runs far more times than an
   8 MiB stack could hold if the storage were kept, so a leak crashes the
   native build and exhausts pipe-run's memory. */
#include <stdio.h>

enum { KIB = 1024 };

/* Writes every 256th element (each 1 KiB of the array) and the last. */
static unsigned fill(unsigned *a, int n, unsigned seed) {
  unsigned h = seed;
  for (int i = 0; i < n; i += 256) {
    a[i] = h;
    h = h * 1103515245u + 12345u;
  }
  a[n - 1] = h;
  return a[n - 1] ^ a[(n / 2) & ~255];
}

/* One VLA per iteration, left by falling off the body, continue and break. */
static unsigned loop_exits(int n, int trips) {
  unsigned sum = 0;
  for (int t = 0;; t++) {
    unsigned a[n];
    sum += fill(a, n, (unsigned)t);
    if (t % 3 == 0) continue;
    if (t >= trips) break;
    sum ^= a[(t * 256) % n];
  }
  return sum;
}

/* A VLA in a nested block left by a goto forwards, and a goto backwards
   to a label before the declaration (which ends the VLA's lifetime too). */
static unsigned goto_exits(int n, int trips) {
  unsigned sum = 0;
  int t = 0;
again:
  if (t == trips) return sum;
  {
    unsigned a[n + t % 7];
    sum += fill(a, n + t % 7, (unsigned)t);
    if (t % 2) {
      t++;
      goto again;
    }
    {
      unsigned b[n];
      sum += fill(b, n, sum);
      if (t % 5 == 0) goto out;
    }
    sum ^= a[0];
  }
out:
  t++;
  goto again;
}

/* return from inside the scope, with the value read from the VLA. */
static unsigned returns_from_scope(int n, unsigned seed) {
  unsigned a[n];
  fill(a, n, seed);
  for (int i = 0; i < n; i += 256)
    if (a[i] % 17 == 3) return a[i];
  return a[n - 1];
}

/* Two dimensions, while and do-while bodies. */
static long matrix_trips(int rows, int cols, int trips) {
  long total = 0;
  int t = 0;
  while (t < trips) {
    long m[rows][cols];
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) m[i][j] = (long)(i + 1) * (j + t);
    total += m[rows - 1][cols - 1] + (long)sizeof m / (long)sizeof m[0];
    t++;
  }
  do {
    char s[rows + cols];
    for (int i = 0; i < rows + cols; i++) s[i] = (char)('a' + i % 26);
    total += s[rows + cols - 1];
  } while (--t > 0);
  return total;
}

int main(void) {
  /* 64 KiB arrays, 200 trips each: 12.5 MiB if the storage were kept. */
  printf("loop exits %u\n", loop_exits(16 * KIB, 200));
  printf("goto exits %u\n", goto_exits(16 * KIB, 200));
  unsigned r = 0;
  for (int i = 0; i < 200; i++) r += returns_from_scope(16 * KIB, (unsigned)i);
  printf("returns %u\n", r);
  printf("matrix %ld\n", matrix_trips(16, 16, 300));
  return 0;
}
