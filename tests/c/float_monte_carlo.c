/* Floating point: a Monte Carlo estimate of pi and of the integral of
   x*x on [0,1] with an integer LCG (uint32 state, converted to double by
   dividing by 2^32), the running mean and variance (Welford's update), a
   float accumulator next to the double one to show single rounding. */
#include <stdio.h>

static unsigned state = 12345u;

static unsigned next(void) {
  state = state * 1664525u + 1013904223u;
  return state;
}

static double uniform(void) { return next() / 4294967296.0; }

int main(void) {
  int inside = 0;
  const int samples = 20000;
  double mean = 0.0, m2 = 0.0;
  float fsum = 0.0f;
  double dsum = 0.0;
  for (int i = 1; i <= samples; i++) {
    double x = uniform(), y = uniform();
    if (x * x + y * y < 1.0) inside++;
    double v = x * x;
    double delta = v - mean;
    mean += delta / i;
    m2 += delta * (v - mean);
    fsum += (float)v;
    dsum += v;
  }
  double pi = 4.0 * inside / samples;
  printf("pi ~ %.6f (inside %d)\n", pi, inside);
  printf("mean %.12f variance %.12f\n", mean, m2 / (samples - 1));
  printf("float sum %.9g double sum %.17g\n", fsum, dsum);
  printf("difference %g\n", dsum - fsum);
  long scaled = (long)(pi * 1e6);
  unsigned short us = (unsigned short)(mean * 65536);
  printf("%ld %u\n", scaled, us);
  return (int)(scaled % 256);
}
