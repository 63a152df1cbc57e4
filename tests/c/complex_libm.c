/* complex_libm.c - <complex.h>: libm's complex functions (cabs, carg,
   cexp, clog, csqrt, csin, ccos, cpow) called with _Complex double and
   float arguments and results, the I macro, creal/cimag/conj, and a small
   FFT-like kernel on complex arrays. */
#include <complex.h>
#include <stdio.h>

static void show(const char* what, double complex z) { printf("%-6s %.17g %.17g\n", what, creal(z), cimag(z)); }

/* The discrete Fourier transform of 8 samples, by definition. */
static void dft(const double complex* in, double complex* out, int n) {
  double complex w = cexp(-2.0 * 3.14159265358979323846 * I / n);
  for (int k = 0; k < n; k++) {
    double complex sum = 0, step = cpow(w, k), t = 1;
    for (int j = 0; j < n; j++) {
      sum += in[j] * t;
      t *= step;
    }
    out[k] = sum;
  }
}

int main(void) {
  double complex z = 3.0 + 4.0 * I;
  printf("cabs %.17g carg %.17g\n", cabs(z), carg(z));
  show("cexp", cexp(z));
  show("clog", clog(z));
  show("csqrt", csqrt(-4.0 + 0.0 * I));
  show("csin", csin(z));
  show("ccos", ccos(z));
  show("cpow", cpow(z, 0.5 + 0.5 * I));
  show("conj", conj(z) * I);
  float complex f = 1.0f - 2.0f * I;
  printf("cabsf %.9g cargf %.9g\n", (double)cabsf(f), (double)cargf(f));
  float complex ef = cexpf(f), sf = csqrtf(f);
  printf("cexpf %.9g %.9g csqrtf %.9g %.9g\n", (double)crealf(ef), (double)cimagf(ef), (double)crealf(sf),
         (double)cimagf(sf));
  double complex in[8], out[8];
  for (int i = 0; i < 8; i++) in[i] = i % 3 + (i % 2) * I;
  dft(in, out, 8);
  for (int k = 0; k < 8; k++) printf("X[%d] = %.6f %+.6fi\n", k, creal(out[k]), cimag(out[k]));
  return 0;
}
