/* va.c - the caller side of the vector interop test (vshapes.h): main calls
   every function of vb.c and prints what comes back; vb.c calls a_back and
   a_vsum here back. */
#include <stdarg.h>
#include <stdio.h>
#include "vshapes.h"

v2si a_back(v2si a, v8si w) { return a * w[7] + (v2si){w[0], w[1]}; }
long a_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long t = 0;
  for (int i = 0; i < n; i++) {
    v2si v = va_arg(ap, v2si);
    t = t * 3 + v[0] - v[1];
  }
  va_end(ap);
  return t;
}

int main(void) {
  v2si s = b_add((v2si){1, -2}, (v2si){40, 50});
  printf("add %d %d\n", s[0], s[1]);
  v2sf f = b_scale((v2sf){1.5f, -2.0f}, 4.0f, (v4hi){1, 2, 3, 4});
  printf("scale %g %g\n", f[0], f[1]);
  v4qu q = b_bytes((v4qu){250, 1, 2, 3}, (v2hi){-7, 300}, 9);
  printf("bytes %u %u %u %u\n", q[0], q[1], q[2], q[3]);
  v8si w = b_wide((v8si){1, 2, 3, 4, 5, 6, 7, 8}, -3, (v8si){10, 20, 30, 40, 50, 60, 70, 80});
  printf("wide");
  for (int i = 0; i < 8; i++) printf(" %d", w[i]);
  printf("\n");
  v4df d = b_wided(0.5, (v4df){1, 2, 3, 4});
  printf("wided %g %g %g %g\n", d[0], d[1], d[2], d[3]);
  struct pair8 p = b_pair((struct pair8){{3, 4}, {0.25f, 8.0f}}, (v2si){100, 200});
  printf("pair %d %d %g %g\n", p.a[0], p.a[1], p.b[0], p.b[1]);
  struct one8 o = b_one((struct one8){{-1, 2, -3, 4}});
  printf("one %d %d %d %d\n", o.h[0], o.h[1], o.h[2], o.h[3]);
  struct mixed8 m = b_mixed((struct mixed8){{5, 6}, 77});
  printf("mixed %d %d %ld\n", m.v[0], m.v[1], m.tag);
  v2si many = b_many((v2si){1, 1}, (v2si){2, 2}, (v2si){3, 3}, (v2si){4, 4}, (v2si){5, 5}, (v2si){6, 6},
                     (v2si){7, 7}, (v2si){8, 8}, (v2si){9, -9}, (v2si){10, -10});
  printf("many %d %d\n", many[0], many[1]);
  printf("vsum %ld\n", b_vsum(10, (v2si){1, 2}, (v2si){3, 4}, (v2si){5, 6}, (v2si){7, 8}, (v2si){9, 10},
                              (v2si){11, 12}, (v2si){13, 14}, (v2si){15, 16}, (v2si){17, 18}, (v2si){19, 20}));
  v2si cb = b_callback(a_back, (v2si){2, 3});
  printf("callback %d %d\n", cb[0], cb[1]);
  return 0;
}
