/* ctrl_loop_opts.c - loops shaped for sonopt's loop passes: invariant loads
   that may or may not leave a loop (a null pointer behind a loop that runs
   zero times, a break before the load, stores that alias), counters scaled
   into addresses (row and column walks, downward, unsigned, 64-bit, struct
   strides, zero-trip and single-trip loops), and small constant loops that
   unroll (stores, divisions, calls); calls of a pure function that traps,
   behind a loop that runs zero times. Run without arguments (argc == 1). */
#include <stdio.h>

struct rec { int a, b, c; };

static int grid[12][12];
static struct rec recs[20];
static int gval = 7;
static int out[16];

static int sum_scaled(const int *p, int n, const int *factor) {
  int s = 0, i;
  for (i = 0; i < n; i++) s += p[i] * *factor; /* *factor: loaded only when n > 0 */
  return s;
}

static int early_exit(const int *p, const int *q) {
  int s = 0, i;
  for (i = 0; i < 10; i++) {
    if (!q) break;
    s += *q + p[i];
  }
  return s;
}

static void alias_store(int *p, int *q) {
  int i;
  for (i = 0; i < 6; i++) q[i] = *p + i; /* q may be p */
}

static int col_sum(int j) {
  int s = 0, k;
  for (k = 0; k < 12; k++) s += grid[k][j] * (k + 1);
  return s;
}

static int diag_down(int n) {
  int s = 0;
  for (; n > 0; n--) s += grid[n][n - 1];
  return s;
}

static long rec_walk(long n) {
  long s = 0, i;
  for (i = 0; i < n; i++) s += recs[i].b - recs[i].c;
  return s;
}

static unsigned rec_unsigned(unsigned lo, unsigned hi) {
  unsigned s = 0, u;
  for (u = lo; u < hi; u++) s = s * 3u + (unsigned)recs[u].a;
  return s;
}

static int trips(int from, int to) {
  int s = 0, k;
  for (k = from; k < to; k++) s += grid[k][2] + gval;
  return s;
}

static int unrolled(int d) {
  int i, x = 1000;
  for (i = 0; i < 4; i++) {
    out[i] = x;
    x -= x / d;
  }
  for (i = 0; i < 3; i++) printf("unrolled %d: %d\n", i, out[i]);
  return x;
}

/* Pure (no memory access) and recursive, so it stays a call; traps when it
   reaches the division with d == 0. */
static int rdiv(int a, int d) { return a <= 0 ? 100 / d : rdiv(a - 1, d) + 1; }

static int pure_loop(int n, int a, int d) {
  int s = 0, i;
  for (i = 0; i < n; i++) s += rdiv(a, d) + i; /* must not run when n == 0 */
  return s;
}

static int pure_fixed(int a, int d) {
  int s = 0, i;
  for (i = 0; i < 6; i++) s += rdiv(a, d) * i; /* runs at least once: may leave */
  return s;
}

int main(int argc, char **argv) {
  int i, j, one = 3, zero = argc - 1;
  (void)argv;
  for (i = 0; i < 12; i++)
    for (j = 0; j < 12; j++) grid[i][j] = (i * 13 + j * 7) % 11 - 5;
  for (i = 0; i < 20; i++) {
    recs[i].a = i * i - 30;
    recs[i].b = 100 - i;
    recs[i].c = i % 4;
  }
  printf("sum_scaled %d %d\n", sum_scaled(grid[1], 12, &one), sum_scaled(grid[2], 0, (int *)0));
  printf("early_exit %d %d\n", early_exit(grid[3], &gval), early_exit(grid[3], (int *)0));
  alias_store(out, out);
  alias_store(&gval, out + 8);
  for (i = 0; i < 16; i++) printf("%d ", out[i]);
  printf("\n");
  for (j = 0; j < 12; j += 5) printf("col_sum %d %d\n", j, col_sum(j));
  printf("diag_down %d %d\n", diag_down(11), diag_down(0));
  printf("rec_walk %ld %ld %ld\n", rec_walk(20), rec_walk(1), rec_walk(0));
  printf("rec_unsigned %u %u\n", rec_unsigned(3, 17), rec_unsigned(5, 5));
  printf("trips %d %d %d\n", trips(0, 12), trips(5, 6), trips(9, 4));
  printf("pure_loop %d %d %d\n", pure_loop(5, 3 + zero, 7), pure_loop(zero, 4, zero), pure_fixed(2 + zero, 9));
  i = unrolled(3);
  j = unrolled(-7);
  printf("unrolled %d %d\n", i, j);
  return 0;
}
