/* vector_layout.c - GNU C vectors as objects: subscripts as lvalues and
   rvalues (of rvalues too), casts between vectors of one size and between a
   vector and a scalar of its size, brace initializers (local, global,
   static, partial, non-constant), vectors in structs, arrays and through
   pointers, static functions taking and returning vectors,
   __builtin_shufflevector and __builtin_convertvector. */
#include <stdio.h>
#include <string.h>

typedef unsigned char v16qu __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef int v2si __attribute__((vector_size(8)));
typedef int v8si __attribute__((vector_size(32)));

#define SHOW(fmt, v, n)                                         \
  do {                                                          \
    printf("%-12s", #v);                                        \
    for (int i_ = 0; i_ < (n); i_++) printf(" " fmt, (v)[i_]);    \
    printf("\n");                                               \
  } while (0)

v4si g4 = {1, -2, 3, -4};
v4sf gf = {1.5f, -2.25f, 3.0f, 0.5f};
v2df gd = {1e10, -0.125};
static v16qu gu = {250, 251, 252, 253, 254, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

struct holder {
  char tag;
  v4si v;
  v2si small;
};
struct holder gh = {'h', {9, 8, 7, 6}, {5, 4}};

static v4si add4(v4si a, v4si b) { return a + b; }
static void bump(v4si *p) { *p += 1; (*p)[3] = 100; }
__attribute__((noinline)) static v4sf mix(v4sf a, v2df b, v4si c) {
  return a * (float)b[0] + (v4sf){c[0], c[1], c[2], c[3]};
}


int main(void) {
  v4si a = {10, 20, 30, 40}, b = {3, -7, 5, -9};
  v4sf f = {1.0f, -2.5f, 3.25f, 0.0f};
  v2si s = {7, -7};
  v8hi h = {1000, -1000, 32767, -32768, 5, 6, 7, 8};
  int k = 41;
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
