/* fp_mandel.c - floating point: the Mandelbrot set on an N x N grid over
   [-1.5, 0.5] x [-1, 1], up to 50 iterations a point (compare, multiply and
   add in a loop whose exit depends on the values). The checksum counts the
   points inside and sums the iterations. */
#include "common.h"

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 1000);
  unsigned long inside = 0, iterations = 0;
  for (long y = 0; y < n; y++) {
    double ci = 2.0 * (double)y / (double)n - 1.0;
    for (long x = 0; x < n; x++) {
      double cr = 2.0 * (double)x / (double)n - 1.5;
      double zr = 0.0, zi = 0.0, tr = 0.0, ti = 0.0;
      int i = 0;
      while (i < 50 && tr + ti <= 4.0) {
        zi = 2.0 * zr * zi + ci;
        zr = tr - ti + cr;
        tr = zr * zr;
        ti = zi * zi;
        i++;
      }
      iterations += (unsigned long)i;
      if (i == 50) inside++;
    }
  }
  printf("fp_mandel %lu inside, %lu iterations\n", inside, iterations);
  return 0;
}
