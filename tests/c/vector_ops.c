/* vector_ops.c - GNU C vector extensions (vector_size 8, 16 and 32 of every
   integer width, float and double): element-wise arithmetic, bitwise
   operators, shifts, comparisons giving -1/0 masks, unary operators and
   vector-scalar operations (the scalar broadcast). vector_layout.c has
   subscripts, casts, initializers, structs, shuffles and conversions. */
#include <stdio.h>

typedef signed char v16qi __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef unsigned short v8hu __attribute__((vector_size(16)));
typedef int v4si __attribute__((vector_size(16)));
typedef unsigned v4su __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
typedef unsigned long long v2du __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef signed char v8qi __attribute__((vector_size(8)));
typedef short v4hi __attribute__((vector_size(8)));
typedef int v2si __attribute__((vector_size(8)));
typedef float v2sf __attribute__((vector_size(8)));
typedef int v8si __attribute__((vector_size(32)));
typedef double v4df __attribute__((vector_size(32)));
typedef long v4di __attribute__((vector_size(32)));

#define SHOW(fmt, v, n)                                         \
  do {                                                          \
    printf("%-12s", #v);                                        \
    for (int i_ = 0; i_ < (n); i_++) printf(" " fmt, (v)[i_]);    \
    printf("\n");                                               \
  } while (0)

v4sf gf = {1.5f, -2.25f, 3.0f, 0.5f};
v2df gd = {1e10, -0.125};
v8si g8 = {1, 2, 3, 4, 5, 6, 7, 8};
v8qi gq = {1, 2, 3};
static v16qu gu = {250, 251, 252, 253, 254, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

static v8si scale8(v8si a, int k) { return a * k; }
static v2sf halve(v2sf a) { return a / 2.0f; }

int main(void) {
  v4si a = {10, 20, 30, 40}, b = {3, -7, 5, -9};
  v4si r;
  r = a + b; SHOW("%d", r, 4);
  r = a - b; SHOW("%d", r, 4);
  r = a * b; SHOW("%d", r, 4);
  r = a / b; SHOW("%d", r, 4);
  r = a % b; SHOW("%d", r, 4);
  r = a & b; SHOW("%d", r, 4);
  r = a | b; SHOW("%d", r, 4);
  r = a ^ b; SHOW("%d", r, 4);
  r = ~a; SHOW("%d", r, 4);
  r = -b; SHOW("%d", r, 4);
  r = +b; SHOW("%d", r, 4);
  r = a << 3; SHOW("%d", r, 4);
  r = b >> 1; SHOW("%d", r, 4);
  r = a << (v4si){0, 1, 2, 3}; SHOW("%d", r, 4);
  r = a > b; SHOW("%d", r, 4);
  r = a == (v4si){10, 0, 30, 0}; SHOW("%d", r, 4);
  r = b <= 3; SHOW("%d", r, 4);
  r = b != -7; SHOW("%d", r, 4);
  r = 100 - a; SHOW("%d", r, 4);
  r = a * 2 + 1; SHOW("%d", r, 4);

  v4su u = {0xffffffffu, 1, 0x80000000u, 7};
  v4su ur = u >> 4; SHOW("%u", ur, 4);
  ur = u / 3; SHOW("%u", ur, 4);
  ur = u > 5; SHOW("%u", ur, 4);

  v16qi c = {127, -128, 1, -1, 100, 50, -100, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  v16qi c2 = c + c; SHOW("%d", c2, 16);
  c2 = c * 3; SHOW("%d", c2, 16);
  c2 = c / -1; SHOW("%d", c2, 16);
  c2 = c >> 2; SHOW("%d", c2, 16);
  c2 = c < 0; SHOW("%d", c2, 16);
  v16qu cu = gu + 10; SHOW("%u", cu, 16);
  cu = gu >> 1; SHOW("%u", cu, 16);
  cu = gu > (unsigned char)200; SHOW("%u", cu, 16);

  v8hi h = {1000, -1000, 32767, -32768, 5, 6, 7, 8};
  v8hi h2 = h * h; SHOW("%d", h2, 8);
  h2 = h + 32767; SHOW("%d", h2, 8);
  v8hu hu = (v8hu)h; hu >>= 3; SHOW("%u", hu, 8);

  v2di d = {0x123456789abLL, -5};
  v2di d2 = d * 1000 - 1; SHOW("%lld", d2, 2);
  d2 = d >> 4; SHOW("%lld", d2, 2);
  v2du du = (v2du)d >> 60; SHOW("%llu", du, 2);

  v4sf f = {1.0f, -2.5f, 3.25f, 0.0f};
  v4sf f2 = f * gf + 1.0f; SHOW("%g", f2, 4);
  f2 = f / gf; SHOW("%g", f2, 4);
  f2 = -f; SHOW("%g", f2, 4);
  v4si fm = f < gf; SHOW("%d", fm, 4);
  fm = f != f; SHOW("%d", fm, 4);
  v2df e = gd * 3.0 - 1.0; SHOW("%g", e, 2);
  v2di em = gd >= (v2df){1e10, 0}; SHOW("%lld", em, 2);

  v2si s = {7, -7};
  v2si s2 = s * s + 1; SHOW("%d", s2, 2);
  v4hi q = {1, 2, 3, 4};
  q = q << 14; SHOW("%d", q, 4);
  v8qi qq = gq - 1; SHOW("%d", qq, 8);
  v2sf hf = halve((v2sf){3.0f, -5.0f}); SHOW("%g", hf, 2);

  v8si w = scale8(g8, -3); SHOW("%d", w, 8);
  w = w + g8; SHOW("%d", w, 8);
  v4df wd = {1.5, 2.5, 3.5, 4.5};
  wd = wd * wd; SHOW("%g", wd, 4);
  v4di wl = {1, 2, 3, 4};
  wl = wl << 40; SHOW("%ld", wl, 4);
  return 0;
}
