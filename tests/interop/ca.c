/* ca.c - the caller side of the _Complex interop test (cshapes.h): main
   calls every function of cb.c and prints what comes back; cb.c calls the
   functions here back (a_vsum reads with va_arg what cb.c passes through
   `...`). */
#include <stdarg.h>
#include <stdio.h>
#include "cshapes.h"

cd a_scale(cd z, double k, cf w) { return z * k + w; }

struct mix a_mix(struct mix m) {
  struct mix r = {m.a * 2, ~m.z};
  return r;
}

double a_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0) {
      cd z = va_arg(ap, cd);
      t = t * 3 + __real__ z - __imag__ z;
    } else {
      cf z = va_arg(ap, cf);
      t = t * 3 + __real__ z + 2 * __imag__ z;
    }
  }
  va_end(ap);
  return t;
}

static void pd(const char* what, cd z) { printf("%s %.17g %.17g\n", what, __real__ z, __imag__ z); }
static void pf(const char* what, cf z) { printf("%s %.9g %.9g\n", what, (double)__real__ z, (double)__imag__ z); }

int main(void) {
  pf("mulf", b_mulf(1.5f + 2.0fi, -3.25f + 0.5fi));
  pd("divd", b_divd(1.0 + 2.0i, 3.0 - 4.0i));
  pd("many", b_many(1 + 1i, 2 + 2i, 3, 4 + 4i, 5 + 5i, 6 + 6i, 7 + 7i, 8, 9 + 9i));
  struct scf f = {0.25f - 8.0fi};
  struct scd w = b_wrap(1e300 + 1e-300i, f);
  pd("wrap", w.z);
  struct mix m = {1.5f, 2.5f + 3.5fi};
  struct dcf d = {-1.0, 4.0f - 5.0fi};
  struct mix r = b_mix(m, d);
  printf("mix %g ", r.a);
  pf("", r.z);
  struct ci x = {7 - 9i, 11};
  struct ci c = b_ci(1 + 2i, -3 + 4i, 5 - 6i, 0x100000000L + 3i, x);
  printf("ci %d %d %d\n", __real__ c.z, __imag__ c.z, c.k);
  struct big b = {1 + 2i, 3 + 4i};
  struct big g = b_big(b, 0.5 - 0.5i);
  pd("big.a", g.a);
  pd("big.b", g.b);
  printf("vsum %.17g\n", b_vsum(5, 1.0 + 2.0i, 3.0f + 4.0fi, 5.0 - 6.0i, -7.0f + 8.0fi, 9.5 + 0.25i));
  pd("callback", b_call_back());
  return 0;
}
