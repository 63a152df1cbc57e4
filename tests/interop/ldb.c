/* ldb.c - the callee side of the long double interop test (ldshapes.h). */
#include "ldshapes.h"

long double b_mix(int a, long double x, double d, long double y, long i, long double z, int j, int k, int l, int m) {
  return a + x * d - y + (long double)i * z + j * 1000 + k * 100 + l * 10 + m;
}

struct ld1 b_one(struct ld1 a, long double s) {
  struct ld1 r = {a.v * s};
  return r;
}

struct ldmix b_mixed(struct ldmix a, struct ld1 b, int scale) {
  struct ldmix r = {a.id * scale, a.v * b.v, a.d + scale};
  return r;
}

long double b_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double t = 0;
  for (int i = 0; i < n; ++i) {
    long double x = va_arg(ap, long double);
    double d = va_arg(ap, double);
    t = t * 2 + x - d;
  }
  va_end(ap);
  return t;
}

long double b_call_back(long double x) {
  struct ldmix m = {2, x, 0.5};
  return a_twice(x) + a_vsum(2, x, 3, -x, 4) + a_one(x, m).v;
}

cld b_cmul(cld a, int k, cld b, double d) { return a * b * k + d; }

cld b_cvsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  cld t = 0;
  for (int i = 0; i < n; ++i) {
    cld z = va_arg(ap, cld);
    long double x = va_arg(ap, long double);
    t = t * 1.5L + z / x;
  }
  va_end(ap);
  return t;
}

cld b_ccall_back(cld z) {
  cld s = a_cscale(z, 0.75L, 3);
  return s / z + a_cvsum(2, z, 7, ~z, -2) + __imag__ s;
}
