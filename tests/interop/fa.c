/* fa.c - the caller side of the floating-point interop test (fshapes.h):
   main calls every function of fb.c with every shape and prints what comes
   back; fb.c calls the functions here back (a_vsum reads with va_arg what
   fb.c passes through `...`). */
#include <stdarg.h>
#include <stdio.h>
#include "fshapes.h"

struct dl a_swap(struct ld x) { struct dl r = {x.b, x.a}; return r; }

double a_take(struct f3 a, struct cd b, struct d2 c, struct d2 d, struct d2 e, struct d2 f, struct f2 g) {
  return a.a + a.b * 2 + a.c * 3 + b.c * 4 + b.d * 5 + c.a * 6 + d.b * 7 + e.a * 8 + f.b * 9 + g.a * 10 + g.b * 11;
}

double a_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int i = 0; i < n; i++) {
    switch (va_arg(ap, int)) {
      case 0: { struct d2 v = va_arg(ap, struct d2); t = t * 3 + v.a - v.b; break; }
      case 1: { struct dl v = va_arg(ap, struct dl); t = t * 3 + v.a + v.b; break; }
      case 3: { struct f3 v = va_arg(ap, struct f3); t = t * 3 + v.a + v.b * v.c; break; }
      case 4: { struct big v = va_arg(ap, struct big); t = t * 3 + v.a + v.b + v.c; break; }
      default: { struct cd v = va_arg(ap, struct cd); t = t * 3 + v.c + v.d; break; }
    }
  }
  va_end(ap);
  return t;
}

int main(void) {
  struct f1 a = b_f1(1.5f); struct f2 b = b_f2(2.5f); struct f3 c = b_f3(4.25f);
  struct d1 d = b_d1(5.5); struct d2 e = b_d2(6.5); struct dl f = b_dl(7.5, -8);
  struct ld g = b_ld(9, 10.5); struct fi h = b_fi(11, 12.5f); struct fii i = b_fii(13.5f, 14);
  struct nest j = b_nest(15.5f); struct farr k = b_farr(16.5f); union ud l = b_ud(17.5); union uf m = b_uf(0.75f);
  struct big n = b_big(18.5); struct cd o = b_cd('x', 19.5); struct fbit p = b_fbit(20.5f, 5);
  struct pk q = b_pk('y', 21.5);
  int empties = 0;
  struct empty z = b_empty(&empties);
  printf("%g | %g %g | %g %g %g | %g | %g %g | %g %ld | %ld %g | %d %g | %g %d %d\n", a.a, b.a, b.b, c.a, c.b, c.c,
         d.a, e.a, e.b, f.a, f.b, g.a, g.b, h.a, h.b, i.a, i.b, i.c);
  printf("%g %g %g | %g %g | %g | %g %g | %g %g %g | %c %g | %g %u | %c %g | %d\n", j.p.a, j.p.b, j.d, k.v[0], k.v[3],
         l.d, m.f[0], m.f[1], n.a, n.b, n.c, o.c, o.d, p.f, p.n, q.c, q.d, empties);
  printf("take %.17g\n", b_take(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q));
  printf("many %.17g\n", b_many(e, e, b_d2(1), e, b_d2(2), 1.25, f, 77, g, 2.5f, h));
  printf("empties %.17g\n", b_empties(1, z, 2.5, z, 3));
  printf("vsum %.17g\n", b_vsum(3, 0, e, 1, f, 2, g));
  printf("vsum %.17g\n", b_vsum(9, 0, e, 1, f, 2, g, 3, c, 4, n, 5, i, 6, l, 7, q, 8, o));
  printf("vsum %.17g\n", b_vsum(12, 0, e, 0, e, 0, e, 0, e, 3, c, 1, f, 2, g, 5, i, 5, i, 4, n, 8, o, 0, e));
  struct al16 w = {1.25f};
  struct cf x = {'a', 0.5f};
  printf("al16 %g\n", b_al16(w, x).a);
  b_twice_positive(-1.0);
  printf("twice %g\n", b_twice_positive(3));
  printf("call back %.17g\n", b_call_back());
  return 0;
}
