/* Floating point: the spectral norm of the infinite matrix
   A(i,j) = 1 / ((i+j)(i+j+1)/2 + i + 1), by power iteration on A^T A with
   double vectors (a division per element, integer-to-double conversion of
   the index expression, sqrt at the end). Prints %.9f; the status depends
   on the digits. */
#include <math.h>
#include <stdio.h>

#define N 60

static double eval_a(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }

static void mul_av(const double *v, double *av, int n) {
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++) sum += eval_a(i, j) * v[j];
    av[i] = sum;
  }
}

static void mul_atv(const double *v, double *atv, int n) {
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++) sum += eval_a(j, i) * v[j];
    atv[i] = sum;
  }
}

static void mul_atav(const double *v, double *out, double *tmp, int n) {
  mul_av(v, tmp, n);
  mul_atv(tmp, out, n);
}

int main(void) {
  double u[N], v[N], tmp[N];
  for (int i = 0; i < N; i++) u[i] = 1;
  for (int i = 0; i < 10; i++) {
    mul_atav(u, v, tmp, N);
    mul_atav(v, u, tmp, N);
  }
  double vbv = 0, vv = 0;
  for (int i = 0; i < N; i++) {
    vbv += u[i] * v[i];
    vv += v[i] * v[i];
  }
  double norm = sqrt(vbv / vv);
  printf("%.9f\n", norm);
  printf("%.17g %.17g\n", vbv, vv);
  float single = (float)norm;
  printf("%.9g %a\n", single, norm);
  return (int)(norm * 1000000) % 256;
}
