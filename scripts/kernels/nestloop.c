/* nestloop.c - six nested counting loops around `x++` (the classic nested
   loop benchmark): an optimizer with scalar evolution computes x as a closed
   form (n^6) and deletes the loops; without it, n^6 increments run. */
#include "common.h"

static int nest(int n) {
  int a, b, c, d, e, f, x = 0;
  for (a = 0; a < n; a++)
    for (b = 0; b < n; b++)
      for (c = 0; c < n; c++)
        for (d = 0; d < n; d++)
          for (e = 0; e < n; e++)
            for (f = 0; f < n; f++) x++;
  return x;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 16);
  printf("nest(%ld) = %d\n", n, nest((int)n));
  return 0;
}
