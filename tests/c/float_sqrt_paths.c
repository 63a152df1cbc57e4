/* float_sqrt_paths.c - sqrt, fabs and copysign called by their library
   names (c2ast gives them the IR of their __builtin_ forms: sqrt is fsqrt,
   with the library call kept only for a negative argument, where it sets
   errno), on ordinary, negative, signed-zero, infinite and NaN arguments;
   then a loop whose body calls sqrt with many values live across it, so
   the register allocator meets the call on one arm of the test and the
   plain square root on the other. NaN's sign is printed by glibc's %f
   (sqrt of a negative number is the default NaN, negative on x86-64). */
#include <math.h>
#include <stdio.h>

static double values[] = {0.0, -0.0, 1.0, 2.0, 0.25, 1e30, 1e-310, -1.0, -4.5};

static double norm3(double x, double y, double z) { return sqrt(x * x + y * y + z * z); }

int main(void) {
  unsigned n = sizeof values / sizeof values[0];
  for (unsigned i = 0; i < n; i++) {
    double v = values[i];
    printf("sqrt(%g) = %.17g, sqrtf = %.9g, fabs = %g, copysign(3, v) = %g\n", v, sqrt(v), (double)sqrtf((float)v),
           fabs(v), copysign(3.0, v));
  }
  printf("sqrt(inf) = %f, sqrt(-inf) = %f, sqrt(nan) = %f\n", sqrt(INFINITY), sqrt(-INFINITY), sqrt(NAN));
  printf("norm3 = %.17g\n", norm3(1.0, 2.0, 2.0));

  double ax = 0.0, ay = 0.0, az = 0.0, bx = 1.0, by = -2.0, bz = 0.5;
  double total = 0.0, negatives = 0.0;
  long count = 0;
  for (int k = 0; k < 200; k++) {
    double dx = ax - bx, dy = ay - by, dz = az - bz;
    double d2 = dx * dx + dy * dy + dz * dz - (k % 7 == 3 ? 100.0 : 0.0);
    double d = sqrt(d2);
    if (d != d) {
      negatives += d2;
      d = 1.0;
    }
    ax += dx / (d + 1.0) * 0.01;
    ay -= dy / (d + 2.0) * 0.02;
    az += dz * 0.001;
    bx = bx * 0.999 + 0.0005;
    by = -by * 0.998;
    bz += 0.125;
    total += d;
    count += k;
  }
  printf("loop: %.17g %.17g %.17g %.17g %.17g %ld\n", ax, ay, az, total, negatives, count);
  return 0;
}
