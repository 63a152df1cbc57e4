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

v4si a_back16(v4si a, double d, v4sf b) { return a * 3 + (v4si){(int)(d * 10), (int)b[1], (int)b[2], (int)b[3]}; }
long a_vsum16(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long t = 0;
  for (int i = 0; i < n; i++) {
    v4si v = va_arg(ap, v4si);
    t = t * 3 + v[0] - v[1] + v[2] * v[3];
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
  v4si s16 = b_add16((v4si){1, -2, 3, -4}, (v4si){10, 20, 30, 40});
  printf("add16 %d %d %d %d\n", s16[0], s16[1], s16[2], s16[3]);
  v2df m16 = b_mix16(1.5, (v4si){1, 2, 3, 4}, -2.25, (v4sf){0.5f, 1.5f, 2.5f, 3.5f}, 0.75f, (v2df){3, 5}, 8.0,
                     (v8hi){1, 2, 3, 4, 5, 6, 7, 8});
  printf("mix16 %g %g\n", m16[0], m16[1]);
  v4si many16 = b_many16((v4si){1, 1, 1, 1}, (v4si){2, 0, 2, 0}, (v4si){3, 3, 0, 0}, (v4si){4, 4, 4, -4},
                         (v4si){5, 0, 0, 5}, (v4si){6, 1, 6, 1}, (v4si){7, 7, 7, 7}, (v4si){8, -8, 8, -8},
                         (v4si){9, 9, -9, 9}, (v4si){10, 100, 1000, 10000});
  printf("many16 %d %d %d %d\n", many16[0], many16[1], many16[2], many16[3]);
  v2df a8 = b_after8(1, 2, 3, 4, 5, 6, 7, 8, (v2df){0.5, -1}, 42, (v4si){100, 0, 0, 1});
  printf("after8 %g %g\n", a8[0], a8[1]);
  struct wrap16 w16 = b_wrap16((struct wrap16){{1, 2, 3, 4}}, 3, (struct wrap16){{0.5f, 0.25f, 2, 1}});
  printf("wrap16 %g %g %g %g\n", w16.v[0], w16.v[1], w16.v[2], w16.v[3]);
  printf("vsum16 %ld\n", b_vsum16(5, 1.0, (v4si){1, 2, 3, 4}, 2.0, (v4si){5, 6, 7, 8}, 3.0, (v4si){9, 10, 11, 12},
                                  4.0, (v4si){-1, -2, -3, -4}, 5.0, (v4si){0, 1, 0, 1}));
  printf("vsum16 %ld\n", b_vsum16(10, 1.0, (v4si){1, 2, 3, 4}, 2.0, (v4si){5, 6, 7, 8}, 3.0, (v4si){9, 10, 11, 12},
                                  4.0, (v4si){-1, -2, -3, -4}, 5.0, (v4si){0, 1, 0, 1}, 6.0, (v4si){2, 2, 2, 2},
                                  7.0, (v4si){3, 1, 4, 1}, 8.0, (v4si){5, 9, 2, 6}, 9.0, (v4si){5, 3, 5, 8},
                                  10.0, (v4si){9, 7, 9, 3}));
  v4si cb16 = b_callback16(a_back16, (v4si){2, 3, 4, 5});
  printf("callback16 %d %d %d %d\n", cb16[0], cb16[1], cb16[2], cb16[3]);
  return 0;
}
