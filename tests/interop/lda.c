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
  return 0;
}
