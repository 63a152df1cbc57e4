/* fp_spectral.c - floating point: the spectral norm of the infinite matrix
   A(i,j) = 1/((i+j)(i+j+1)/2+i+1) (Computer Language Benchmarks Game):
   ten power iterations of A'A on an N-vector, divisions in the inner loop,
   one sqrt at the end. N is the scale. */
#include <math.h>
#include "common.h"

#define MAXN 4000
static double u[MAXN], v[MAXN], tmp[MAXN];

static double a(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }

static void mul_av(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += a(i, j) * x[j];
    y[i] = s;
  }
}

static void mul_atv(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += a(j, i) * x[j];
    y[i] = s;
  }
}

static void mul_atav(int n, const double *x, double *y) {
  mul_av(n, x, tmp);
  mul_atv(n, tmp, y);
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 1000);
  if (n > MAXN) n = MAXN;
  for (int i = 0; i < n; i++) u[i] = 1.0;
  for (int i = 0; i < 10; i++) {
    mul_atav((int)n, u, v);
    mul_atav((int)n, v, u);
  }
  double vbv = 0.0, vv = 0.0;
  for (int i = 0; i < n; i++) {
    vbv += u[i] * v[i];
    vv += v[i] * v[i];
  }
  printf("fp_spectral norm %.17g\n", sqrt(vbv / vv));
  return 0;
}
