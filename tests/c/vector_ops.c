/* vector_ops.c - GNU C vector extensions (vector_size 8, 16 and 32 of every
   integer width, float and double): element-wise arithmetic, bitwise
   operators, shifts, comparisons giving -1/0 masks, unary operators,
   vector-scalar operations (the scalar broadcast), subscripts as lvalues and
   rvalues, casts between vectors of one size, brace initializers (local,
   global, static, partial), compound assignment, vectors in structs, arrays
   and through pointers, __builtin_shufflevector and __builtin_convertvector. */
#include <stdio.h>
#include <string.h>

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

#define SHOW(fmt, v, n)                                  \
  do {                                                   \
    printf("%-12s", #v);                                 \
    for (int i_ = 0; i_ < (n); i_++) printf(" " fmt, (v)[i_]); \
    printf("\n");                                        \
  } while (0)

v4si g4 = {1, -2, 3, -4};
v4sf gf = {1.5f, -2.25f, 3.0f, 0.5f};
v2df gd = {1e10, -0.125};
v8si g8 = {1, 2, 3, 4, 5, 6, 7, 8};
v8qi gq = {1, 2, 3};
static v16qu gu = {250, 251, 252, 253, 254, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

struct holder {
  char tag;
  v4si v;
  v2si small;
};
struct holder gh = {'h', {9, 8, 7, 6}, {5, 4}};

static v4si add4(v4si a, v4si b) { return a + b; }
static v8si scale8(v8si a, int k) { return a * k; }
static v2sf halve(v2sf a) { return a / 2.0f; }
static void bump(v4si *p) { *p += 1; (*p)[3] = 100; }
__attribute__((noinline)) static v4sf mix(v4sf a, v2df b, v4si c) {
  return a * (float)b[0] + (v4sf){c[0], c[1], c[2], c[3]};
}

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

  /* subscripts as lvalues and rvalues, of rvalues too */
  a[1] = 99;
  a[2] += 5;
  int idx = 3;
  a[idx]--;
  SHOW("%d", a, 4);
  printf("elt %d %d %g\n", (a + b)[1], add4(a, b)[idx], (f * 2.0f)[2]);

  /* casts: reinterpretation of the bytes */
  v4si bits = (v4si)f;
  SHOW("%08x", bits, 4);
  v16qu bytes = (v16qu)g4;
  SHOW("%u", bytes, 16);
  long long ll = (long long)s;
  printf("as ll %llx\n", ll);
  v2si from_ll = (v2si)0x0000000500000006LL;
  SHOW("%d", from_ll, 2);

  /* initializers */
  v4si partial = {1, 2};
  SHOW("%d", partial, 4);
  static v4si st = {5, 6, 7, 8};
  st += 1;
  SHOW("%d", st, 4);
  v4si zero = {};
  SHOW("%d", zero, 4);
  int k = 41;
  v4si dyn = {k, k + 1, k * 2};
  SHOW("%d", dyn, 4);
  SHOW("%u", gu, 16);

  /* structs, arrays, pointers */
  struct holder hl = gh;
  hl.v *= 2;
  hl.small[1] = -1;
  printf("holder %c", hl.tag);
  SHOW("%d", hl.v, 4);
  SHOW("%d", hl.small, 2);
  v4si arr[3] = {{1, 1, 1, 1}, {2, 2, 2, 2}};
  arr[2] = arr[0] + arr[1];
  arr[1][2] = 77;
  for (int i = 0; i < 3; i++) SHOW("%d", arr[i], 4);
  v4si *p = &arr[2];
  bump(p);
  SHOW("%d", *p, 4);
  int *ip = (int *)&arr[0];
  ip[3] = -5;
  SHOW("%d", arr[0], 4);
  /* (gcc's _Alignof of a 32-byte vector without -mavx says 16, clang's 32;
     both lay it out 32-aligned) */
  printf("sizes %zu %zu %zu %zu align %zu\n", sizeof(v4si), sizeof(v2si), sizeof(v8si), sizeof(struct holder),
         _Alignof(v4si));

  /* shuffles and conversions */
  v4si sh = __builtin_shufflevector(a, b, 0, 4, 1, 5);
  SHOW("%d", sh, 4);
  v8hi sh2 = __builtin_shufflevector(h, h, 7, 6, 5, 4, 3, 2, 1, 0);
  SHOW("%d", sh2, 8);
  v2si lo = __builtin_shufflevector(a, a, 3, 0);
  SHOW("%d", lo, 2);
  v4sf cv = __builtin_convertvector(b, v4sf);
  SHOW("%g", cv, 4);
  v4si ci = __builtin_convertvector((v4sf){1.9f, -1.9f, 1e9f, 0.5f}, v4si);
  SHOW("%d", ci, 4);
  v2df cd = __builtin_convertvector(s, v2df);
  SHOW("%g", cd, 2);

  v4sf m = mix(gf, gd, g4);
  SHOW("%g", m, 4);
  v4si cmp = k > 40 ? g4 : -g4;
  SHOW("%d", cmp, 4);
  char buf[16];
  memcpy(buf, &g4, 16);
  printf("mem %d\n", buf[4]);
  return 0;
}
