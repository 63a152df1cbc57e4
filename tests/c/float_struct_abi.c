/* Structs and unions with float and double members passed, returned and
   read with va_arg by value: every System V class shape (SSE, INTEGER,
   mixed INTEGER/SSE eightbytes, two floats sharing an eightbyte, nested
   structs, arrays, unions, a bit-field, MEMORY above 16 bytes and with a
   char before a double), more of them than registers (an aggregate that no
   longer fits goes wholly to the stack while later scalars still take
   registers), and a variadic function reading each shape. noinline keeps
   the calls at -O2. */
#include <stdarg.h>
#include <stdio.h>

struct f1 { float a; };
struct f2 { float a, b; };
struct f3 { float a, b, c; };
struct d1 { double a; };
struct d2 { double a, b; };
struct dl { double a; long b; };
struct ld { long a; double b; };
struct fi { int a; float b; };
struct fii { float a; int b, c; };
struct nest { struct f2 p; double d; };
struct farr { float v[4]; };
union ud { double d; long l; };
struct big { double a, b, c; };
struct cd { char c; double d; };
struct fbit { float f; unsigned n : 3; };

#define NI __attribute__((noinline))
NI struct f1 mk_f1(float a) { struct f1 r = {a}; return r; }
NI struct f2 mk_f2(float a) { struct f2 r = {a, -a}; return r; }
NI struct f3 mk_f3(float a) { struct f3 r = {a, a * 2, a * 3}; return r; }
NI struct d1 mk_d1(double a) { struct d1 r = {a}; return r; }
NI struct d2 mk_d2(double a) { struct d2 r = {a, a / 4}; return r; }
NI struct dl mk_dl(double a, long b) { struct dl r = {a, b}; return r; }
NI struct ld mk_ld(long a, double b) { struct ld r = {a, b}; return r; }
NI struct fi mk_fi(int a, float b) { struct fi r = {a, b}; return r; }
NI struct fii mk_fii(float a, int b) { struct fii r = {a, b, -b}; return r; }
NI struct nest mk_nest(float a) { struct nest r = {{a, a + 1}, a * 0.5}; return r; }
NI struct farr mk_farr(float a) { struct farr r = {{a, a + 1, a + 2, a + 3}}; return r; }
NI union ud mk_ud(double a) { union ud r; r.d = a; return r; }
NI struct big mk_big(double a) { struct big r = {a, a + 1, a + 2}; return r; }
NI struct cd mk_cd(char c, double d) { struct cd r = {c, d}; return r; }
NI struct fbit mk_fbit(float f, unsigned n) { struct fbit r = {f, n}; return r; }

NI double take(struct f1 a, struct f2 b, struct f3 c, struct d1 d, struct d2 e, struct dl f, struct ld g,
               struct fi h, struct fii i, struct nest j, struct farr k, union ud l, struct big m, struct cd n,
               struct fbit o) {
  return a.a + b.a * 2 + b.b * 3 + c.a * 4 + c.b * 5 + c.c * 6 + d.a * 7 + e.a * 8 + e.b * 9 + f.a * 10 + f.b * 11 +
         g.a * 12 + g.b * 13 + h.a * 14 + h.b * 15 + i.a * 16 + i.b * 17 + i.c * 18 + j.p.a * 19 + j.p.b * 20 +
         j.d * 21 + k.v[0] * 22 + k.v[3] * 23 + l.d * 24 + m.a * 25 + m.c * 26 + n.c * 27 + n.d * 28 + o.f * 29 +
         o.n * 30;
}

/* Five {double, double} take xmm0-xmm7 but one pair: the fifth goes to the
   stack, x still gets xmm; g ({long, double}) no longer finds an xmm. */
NI double many(struct d2 a, struct d2 b, struct d2 c, struct d2 d, struct d2 e, double x, struct dl f, long y,
               struct ld g, float z, struct fi h) {
  return a.a + b.b * 2 + c.a * 3 + d.b * 4 + e.a * 5 + e.b * 6 + x * 7 + f.a * 8 + f.b * 9 + y * 10 + g.a * 11 +
         g.b * 12 + z * 13 + h.a * 14 + h.b * 15;
}

NI double vsum(int n, ...) {
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
      default: { struct cd v = va_arg(ap, struct cd); t = t * 3 + v.c + v.d; break; }
    }
  }
  va_end(ap);
  return t;
}

int main(void) {
  struct f1 a = mk_f1(1.5f); struct f2 b = mk_f2(2.5f); struct f3 c = mk_f3(4.25f);
  struct d1 d = mk_d1(5.5); struct d2 e = mk_d2(6.5); struct dl f = mk_dl(7.5, -8);
  struct ld g = mk_ld(9, 10.5); struct fi h = mk_fi(11, 12.5f); struct fii i = mk_fii(13.5f, 14);
  struct nest j = mk_nest(15.5f); struct farr k = mk_farr(16.5f); union ud l = mk_ud(17.5);
  struct big m = mk_big(18.5); struct cd n = mk_cd('x', 19.5); struct fbit o = mk_fbit(20.5f, 5);
  printf("%g | %g %g | %g %g %g | %g | %g %g | %g %ld | %ld %g | %d %g | %g %d %d\n", a.a, b.a, b.b, c.a, c.b, c.c,
         d.a, e.a, e.b, f.a, f.b, g.a, g.b, h.a, h.b, i.a, i.b, i.c);
  printf("%g %g %g | %g %g | %g | %g %g %g | %c %g | %g %u\n", j.p.a, j.p.b, j.d, k.v[0], k.v[3], l.d, m.a, m.b,
         m.c, n.c, n.d, o.f, o.n);
  printf("take %.17g\n", take(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o));
  printf("many %.17g\n", many(e, e, mk_d2(1), e, mk_d2(2), 1.25, f, 77, g, 2.5f, h));
  printf("vsum %.17g\n", vsum(3, 0, e, 1, f, 2, g));
  printf("vsum %.17g\n", vsum(8, 0, e, 1, f, 2, g, 3, c, 4, m, 5, i, 6, l, 7, n));
  printf("vsum %.17g\n", vsum(12, 0, e, 0, e, 0, e, 0, e, 3, c, 1, f, 2, g, 5, i, 5, i, 4, m, 7, n, 0, e));
  return 0;
}
