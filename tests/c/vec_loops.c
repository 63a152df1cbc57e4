/* vec_loops.c - loops sonopt's vectorize pass turns into 16-byte vectors
   (SSE2: four int or float lanes, two long or double lanes): element-wise
   arithmetic over static arrays (distinct objects) with trip counts that
   are multiples of the lanes, invariant scalars splatted into every lane,
   shifts by constants, min and max (compare and blend), float negation
   and absolute value, a dense
   row-times-matrix update as in fp_matmul, and integer sums, whose lanes
   are added after the loop (exact: integer addition wraps the same in any
   order). Unsigned arithmetic where the sums overflow on purpose; shifts
   left of negative values through unsigned, converted back to int and
   long (the conversion wraps: the x86-64 ABI choice). */
#include <stdio.h>

#define N 64
static int ia[N], ib[N], ic[N];
static unsigned ua[N];
static long la[N], lb[N], lc[N];
static float fa[N], fb[N], fc[N];
static double da[N], db[N], dc[N];
static double m[8][N], row[N];

static void init(int seed) {
  for (int i = 0; i < N; i++) {
    ia[i] = (i * 37 + seed) % 101 - 50;
    ib[i] = (i * 11 + 3 * seed) % 67 - 20;
    ua[i] = 0x9E3779B9u * (unsigned)(i + seed);
    la[i] = (long)ia[i] * 100003L + seed;
    lb[i] = (long)ib[i] * -7919L;
    fa[i] = (float)ia[i] / 8.0f;
    fb[i] = (float)ib[i] * 0.375f + 0.1f;
    da[i] = (double)ia[i] / 3.0;
    db[i] = (double)ib[i] * 1.25 - 0.3;
  }
}

static void int_ops(int k) {
  for (int i = 0; i < N; i++) ic[i] = ia[i] + ib[i];
  for (int i = 0; i < N; i++) ic[i] = (ic[i] - ib[i]) ^ (ia[i] & 0x3c);
  for (int i = 0; i < N; i++) ic[i] = (ic[i] | ib[i]) + k;
  for (int i = 0; i < N; i++) ic[i] = (int)((unsigned)ic[i] << 3) + (ia[i] >> 2);
  for (int i = 0; i < N; i++) ua[i] = (ua[i] >> 5) ^ (ua[i] << 7);
  for (int i = 0; i < N; i++) { /* min */
    int x = ia[i], y = ib[i];
    ib[i] = x < y ? x : y;
  }
  for (int i = 0; i < N; i++) { /* max with an invariant */
    int x = ic[i], m = k * 9 + 40;
    ic[i] = x <= m ? m : x;
  }
  for (int i = 0; i < N; i++) {
    int x = ia[i], y = ib[i], d = x - y;
    ia[i] = x != y ? d : 77;
  }
  for (int i = 0; i < N; i++) lc[i] = la[i] - lb[i] + (long)k;
  for (int i = 0; i < N; i++) lc[i] = (long)((unsigned long)lc[i] << 2) ^ (long)((unsigned long)lb[i] >> 1);
}

static void float_ops(float s, double t) {
  for (int i = 0; i < N; i++) fc[i] = fa[i] * fb[i] + s;
  for (int i = 0; i < N; i++) fc[i] = fc[i] / (fb[i] * fb[i] + 1.0f) - fa[i];
  for (int i = 0; i < N; i++) fc[i] = -fc[i];
  for (int i = 0; i < N; i++) dc[i] = da[i] * t - db[i];
  for (int i = 0; i < N; i++) dc[i] = dc[i] / (db[i] * db[i] + 0.5);
  for (int i = 0; i < N; i++) dc[i] = __builtin_fabs(dc[i]) + da[i];
}

static void matrix(void) {
  for (int k = 0; k < 8; k++)
    for (int j = 0; j < N; j++) m[k][j] = (double)((k * 5 + j * 3) % 11) - 4.5;
  for (int j = 0; j < N; j++) row[j] = 0.0;
  for (int k = 0; k < 8; k++) {
    double s = (double)(k + 1) * 0.5;
    for (int j = 0; j < N; j++) row[j] += s * m[k][j];
  }
}

static int isum(void) {
  int s = 7;
  for (int i = 0; i < N; i++) s += ic[i];
  return s;
}

static unsigned usum(void) {
  unsigned s = 0;
  for (int i = 0; i < N; i++) s += ua[i];
  return s;
}

static unsigned long lsum(void) {
  unsigned long s = 3;
  for (int i = 0; i < N; i++) s += (unsigned long)lc[i];
  return s;
}

int main(void) {
  for (int round = 0; round < 3; round++) {
    init(round * 13 + 1);
    int_ops(round - 1);
    float_ops(0.25f * (float)round, 1.0 / (round + 3));
    matrix();
    printf("round %d: ints %d %u %lu\n", round, isum(), usum(), lsum());
    printf("  ic %d %d %d lc %ld %ld\n", ic[0], ic[17], ic[N - 1], lc[5], lc[N - 1]);
    double fs = 0.0, ds = 0.0, rs = 0.0;
    for (int i = 0; i < N; i++) {
      fs += fc[i] * (double)(i + 1);
      ds += dc[i] * (double)(i + 1);
      rs += row[i] * (double)(i + 1);
    }
    printf("  floats %.9g %.17g %.17g %a %a\n", fs, ds, rs, (double)fc[9], dc[33]);
  }
  return 0;
}
