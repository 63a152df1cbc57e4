/* vb.c - the callee side of the vector interop test (vshapes.h). */
#include <stdarg.h>
#include "vshapes.h"

v2si b_add(v2si x, v2si y) { return x + y; }
v2sf b_scale(v2sf x, float k, v4hi h) { return x * k + (v2sf){h[1], h[3]}; }
v4qu b_bytes(v4qu a, v2hi b, int n) { return a + (unsigned char)n + (v4qu){b[0], b[1], 0, 1}; }
v8si b_wide(v8si a, int k, v8si b) { return a * k + b; }
v4df b_wided(double d, v4df a) { return a * d - 1.0; }
struct pair8 b_pair(struct pair8 p, v2si extra) {
  struct pair8 r = {p.a * extra, p.b + 1.0f};
  return r;
}
struct one8 b_one(struct one8 o) {
  o.h = -o.h;
  return o;
}
struct mixed8 b_mixed(struct mixed8 m) {
  m.v <<= 2;
  m.tag++;
  return m;
}
v2si b_many(v2si a, v2si b, v2si c, v2si d, v2si e, v2si f, v2si g, v2si h, v2si i, v2si j) {
  return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10;
}
long b_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long t = 0;
  for (int k = 0; k < n; k++) {
    v2si v = va_arg(ap, v2si);
    t = t * 2 + v[0] * v[1];
  }
  va_end(ap);
  return t;
}
v2si b_callback(v2si (*f)(v2si, v8si), v2si x) {
  v2si r = f(x, (v8si){1, 2, 3, 4, 5, 6, 7, 8});
  return r + (v2si){(int)a_vsum(3, x, x * 2, (v2si){-1, 1}), (int)a_vsum(9, x, x, x, x, x, x, x, x, x)};
}
v4si b_add16(v4si x, v4si y) { return x + y * 3; }
v2df b_mix16(double d0, v4si a, double d1, v4sf b, float f, v2df c, double d2, v8hi h) {
  return c * (v2df){d0, d1} + (v2df){a[0] + a[3] + b[1] + f, d2 + b[2] + h[7] - h[0]};
}
v4si b_many16(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, v4si h, v4si i, v4si j) {
  return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10;
}
v2df b_after8(double a, double b, double c, double d, double e, double f, double g, double h, v2df v, int k,
              v4si w) {
  return v * (a + b + c + d + e + f + g + h) + (v2df){k, w[0] - w[3]};
}
struct wrap16 b_wrap16(struct wrap16 w, long k, struct wrap16 u) {
  struct wrap16 r = {w.v * (float)k - u.v};
  return r;
}
long b_vsum16(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long t = 0;
  for (int k = 0; k < n; k++) {
    double d = va_arg(ap, double);
    v4si v = va_arg(ap, v4si);
    t = t * 2 + (long)d + v[0] * v[1] - v[2] + v[3];
  }
  va_end(ap);
  return t;
}
v4si b_callback16(v4si (*f)(v4si, double, v4sf), v4si x) {
  v4si r = f(x, 0.5, (v4sf){1, 2, 3, 4});
  return r + (int)a_vsum16(9, x, x * 2, x, x, x, x, x, x, (v4si){-1, 1, 5, 7});
}
