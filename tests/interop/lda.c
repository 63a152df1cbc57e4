/* lda.c - the caller side of the long double interop test (ldshapes.h). */
#include <stdio.h>
#include <string.h>
#include "ldshapes.h"

long double a_twice(long double x) { return x * 2; }

long double a_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double t = 0;
  for (int i = 0; i < n; ++i) t = t * 3 + va_arg(ap, long double) + va_arg(ap, int);
  va_end(ap);
  return t;
}

struct ld1 a_one(long double x, struct ldmix m) {
  struct ld1 r = {x + m.v * m.id + m.d};
  return r;
}

cld a_cscale(cld z, long double s, int k) { return z * s - k * 1.0iL; }

cld a_cvsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  cld t = 0;
  for (int i = 0; i < n; ++i) {
    cld z = va_arg(ap, cld);
    t = t * 2 + z * va_arg(ap, int);
  }
  va_end(ap);
  return t;
}

static void show(const char *name, long double v) {
  unsigned char b[10];
  memcpy(b, &v, 10);
  printf("%-8s %.21Lg ", name, v);
  for (int i = 9; i >= 0; --i) printf("%02x", b[i]);
  printf("\n");
}

int main(void) {
  long double third = 1.0L / 3;
  show("mix", b_mix(1, third, 0.5, -2.25L, 1234567890123L, 1e-300L, 3, 4, 5, 6));
  struct ld1 one = {third};
  show("one", b_one(one, 7.0L).v);
  struct ldmix m = {5, third, 0.125};
  struct ldmix r = b_mixed(m, one, 3);
  printf("mixed %d %.17g ", r.id, r.d);
  show("", r.v);
  show("vsum", b_vsum(3, third, 1.5, -third, 2.5, 1e20L, -1.0));
  show("back", b_call_back(third));
  printf("%Lf %Le\n", third, third * 1e300L * 1e300L);
  cld z = third - 2.5iL, w = 1.25L + third * 1.0iL;
  cld p = b_cmul(z, 3, w, 0.5);
  show("cmul.re", __real__ p);
  show("cmul.im", __imag__ p);
  cld v = b_cvsum(3, z, third, w, -2.0L, z * w, 1e10L);
  show("cvsum.re", __real__ v);
  show("cvsum.im", __imag__ v);
  cld back = b_ccall_back(w);
  show("cback.re", __real__ back);
  show("cback.im", __imag__ back);
  return 0;
}
