/* cb.c - the callee side of the _Complex interop test (cshapes.h). */
#include <stdarg.h>
#include "cshapes.h"

cf b_mulf(cf a, cf b) { return a * b; }

cd b_divd(cd a, cd b) { return a / b; }

cd b_many(cd a, cf b, double x, cd c, cd d, cd e, cf f, int k, cd g) {
  return a + b * 2 + x * 3 + c * 4 + d * 5i + e * 6 + f * 7 + k * 8 + g * 9;
}

struct scd b_wrap(cd z, struct scf f) {
  struct scd r = {z - f.z};
  return r;
}

struct mix b_mix(struct mix m, struct dcf d) {
  struct mix r = {m.a + (float)d.d, m.z * d.z};
  return r;
}

struct ci b_ci(_Complex int a, _Complex short s, _Complex char c, _Complex long l, struct ci x) {
  struct ci r = {a * s + c - (_Complex int)l + x.z, x.k + (int)(__imag__ l)};
  return r;
}

struct big b_big(struct big x, cd y) {
  struct big r = {x.b * y, x.a / y};
  return r;
}

double b_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0) {
      cd z = va_arg(ap, cd);
      t = t * 2 + __real__ z * __imag__ z;
    } else {
      cf z = va_arg(ap, cf);
      t = t * 2 - __real__ z + __imag__ z;
    }
  }
  va_end(ap);
  return t;
}

cd b_call_back(void) {
  struct mix m = {3.0f, 1.0f + 1.0fi};
  struct mix r = a_mix(m);
  double v = a_vsum(4, 1.0 + 1.0i, 2.0f + 0.5fi, -3.0 + 0.125i, 4.0f - 4.0fi);
  return a_scale(2.0 - 3.0i, v, r.z) + r.a;
}
