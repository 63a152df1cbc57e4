/* fb.c - the callee side of the floating-point interop test (fshapes.h):
   makers of every shape, functions taking them (more than fit in
   registers), a variadic function reading them with va_arg, and calls back
   into fa.c with them. */
#include <stdarg.h>
#include "fshapes.h"

struct f1 b_f1(float a) { struct f1 r = {a}; return r; }
struct f2 b_f2(float a) { struct f2 r = {a, -a}; return r; }
struct f3 b_f3(float a) { struct f3 r = {a, a * 2, a * 3}; return r; }
struct d1 b_d1(double a) { struct d1 r = {a}; return r; }
struct d2 b_d2(double a) { struct d2 r = {a, a / 4}; return r; }
struct dl b_dl(double a, long b) { struct dl r = {a, b}; return r; }
struct ld b_ld(long a, double b) { struct ld r = {a, b}; return r; }
struct fi b_fi(int a, float b) { struct fi r = {a, b}; return r; }
struct fii b_fii(float a, int b) { struct fii r = {a, b, -b}; return r; }
struct nest b_nest(float a) { struct nest r = {{a, a + 1}, a * 0.5}; return r; }
struct farr b_farr(float a) { struct farr r = {{a, a + 1, a + 2, a + 3}}; return r; }
union ud b_ud(double a) { union ud r; r.d = a; return r; }
union uf b_uf(float a) { union uf r; r.f[0] = a; r.f[1] = -a; return r; }
struct big b_big(double a) { struct big r = {a, a + 1, a + 2}; return r; }
struct cd b_cd(char c, double d) { struct cd r = {c, d}; return r; }
struct fbit b_fbit(float f, unsigned n) { struct fbit r = {f, n}; return r; }
struct pk b_pk(char c, double d) { struct pk r = {c, d}; return r; }
struct empty b_empty(int *counter) { struct empty r; ++*counter; return r; }

double b_take(struct f1 a, struct f2 b, struct f3 c, struct d1 d, struct d2 e, struct dl f, struct ld g,
              struct fi h, struct fii i, struct nest j, struct farr k, union ud l, union uf m, struct big n,
              struct cd o, struct fbit p, struct pk q) {
  return a.a + b.a * 2 + b.b * 3 + c.a * 4 + c.b * 5 + c.c * 6 + d.a * 7 + e.a * 8 + e.b * 9 + f.a * 10 + f.b * 11 +
         g.a * 12 + g.b * 13 + h.a * 14 + h.b * 15 + i.a * 16 + i.b * 17 + i.c * 18 + j.p.a * 19 + j.p.b * 20 +
         j.d * 21 + k.v[0] * 22 + k.v[3] * 23 + l.d * 24 + m.f[0] * 25 + m.f[1] * 26 + n.a * 27 + n.c * 28 +
         o.c * 29 + o.d * 30 + p.f * 31 + p.n * 32 + q.c * 33 + q.d * 34;
}

double b_many(struct d2 a, struct d2 b, struct d2 c, struct d2 d, struct d2 e, double x, struct dl f, long y,
              struct ld g, float z, struct fi h) {
  return a.a + b.b * 2 + c.a * 3 + d.b * 4 + e.a * 5 + e.b * 6 + x * 7 + f.a * 8 + f.b * 9 + y * 10 + g.a * 11 +
         g.b * 12 + z * 13 + h.a * 14 + h.b * 15;
}

double b_empties(int a, struct empty e, double b, struct empty f, int c) { (void)e, (void)f; return a * 100 + b * 10 + c; }

/* Falls off its end when x <= 0 (the value is then unused): an undefined
   result returned in xmm0 (c-torture 930608-1, 20030125-1). */
double b_twice_positive(double x) { if (x > 0) return x * 2; }

struct al16 b_al16(struct al16 a, struct cf b) { struct al16 r = {a.a * b.f + b.c}; return r; }

double b_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int i = 0; i < n; i++) {
    switch (va_arg(ap, int)) {
      case 0: { struct d2 v = va_arg(ap, struct d2); t = t * 3 + v.a - v.b; break; }
      case 1: { struct dl v = va_arg(ap, struct dl); t = t * 3 + v.a + v.b; break; }
      case 2: { struct ld v = va_arg(ap, struct ld); t = t * 3 + v.a * v.b; break; }
      case 3: { struct f3 v = va_arg(ap, struct f3); t = t * 3 + v.a + v.b * v.c; break; }
      case 4: { struct big v = va_arg(ap, struct big); t = t * 3 + v.a + v.b + v.c; break; }
      case 5: { struct fii v = va_arg(ap, struct fii); t = t * 3 + v.a + v.b + v.c; break; }
      case 6: { union ud v = va_arg(ap, union ud); t = t * 3 + v.d; break; }
      case 7: { struct pk v = va_arg(ap, struct pk); t = t * 3 + v.c + v.d; break; }
      default: { struct cd v = va_arg(ap, struct cd); t = t * 3 + v.c + v.d; break; }
    }
  }
  va_end(ap);
  return t;
}

double b_call_back(void) {
  struct dl s = a_swap(b_ld(3, 4.5));
  struct d2 e = b_d2(8);
  double t = s.a * 10 + s.b + a_take(b_f3(1.5f), b_cd('q', 2.5), e, e, e, e, b_f2(7.5f));
  return t + a_vsum(5, 0, e, 1, s, 3, b_f3(0.5f), 8, b_cd('z', -1.25), 4, b_big(2));
}
