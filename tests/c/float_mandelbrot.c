/* Floating point: a Mandelbrot set drawn in ASCII, with double complex
   arithmetic written out (two doubles), an escape test on x*x + y*y > 4.0,
   and an iteration count per cell; a float version of one row checks that
   f32 arithmetic rounds as float. The status is the checksum of the counts. */
#include <stdio.h>

static int iterations(double cr, double ci, int limit) {
  double x = 0.0, y = 0.0;
  int n = 0;
  while (n < limit && x * x + y * y <= 4.0) {
    double t = x * x - y * y + cr;
    y = 2.0 * x * y + ci;
    x = t;
    n++;
  }
  return n;
}

static int iterations_f(float cr, float ci, int limit) {
  float x = 0.0f, y = 0.0f;
  int n = 0;
  for (; n < limit; n++) {
    float x2 = x * x, y2 = y * y;
    if (x2 + y2 > 4.0f) break;
    y = 2.0f * x * y + ci;
    x = x2 - y2 + cr;
  }
  return n;
}

int main(void) {
  const char *shades = " .:-=+*#%@";
  unsigned checksum = 0;
  for (int row = 0; row < 24; row++) {
    char line[73];
    double ci = -1.2 + row * (2.4 / 23);
    for (int col = 0; col < 72; col++) {
      double cr = -2.1 + col * (3.0 / 71);
      int n = iterations(cr, ci, 60);
      checksum = checksum * 31 + (unsigned)n;
      line[col] = shades[n >= 60 ? 9 : n % 9];
    }
    line[72] = '\0';
    puts(line);
  }
  unsigned fsum = 0;
  for (int col = 0; col < 40; col++) fsum += (unsigned)iterations_f(-2.0f + col * 0.0625f, 0.3f, 200);
  printf("checksum %u, float row %u\n", checksum, fsum);
  return (int)((checksum ^ fsum) % 256);
}
