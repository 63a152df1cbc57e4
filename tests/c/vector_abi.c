/* vector_abi.c - 16-byte GNU C vectors crossing calls by value as System V
   passes them (classes SSE, SSEUP: one xmm register each): in every
   position of xmm0-xmm7 among doubles and floats, past the eighth on the
   stack (16-aligned, after doubles that took the registers), returned in
   xmm0, a struct whose only member is one, through a function pointer,
   through `...` (va_arg from the register save area, then the overflow
   area), and passed on from a parameter to another call. Every function
   is noinline, so each call stays a call at -O2. */
#include <stdarg.h>
#include <stdio.h>

typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
struct wrap { v2df v; };

#define NOINLINE __attribute__((noinline))

NOINLINE v4si add(v4si a, v4si b) { return a + b; }
NOINLINE v2df mixed(double d0, v4si a, float f, v2df b, double d1, v4sf c, v16qu q) {
  return b * d0 + (v2df){a[1] + c[2] + f, d1 - a[3] + c[0] + q[15]};
}
NOINLINE v4si ten(v4si a, v4si b, v4si c, v4si d, v4si e, v4si f, v4si g, v4si h, v4si i, v4si j) {
  return a - b + c * 2 + d * 3 - e + f * 5 + g + h * 7 + i * 11 - j * 13;
}
NOINLINE v2df past_doubles(double a, double b, double c, double d, double e, double f, double g, double h,
                           double i, v2df v, int k, v2df w) {
  return v * (a + b + c + d) + w * (e + f + g + h - i) + (v2df){k, -k};
}
NOINLINE struct wrap wrapped(struct wrap x, long k) {
  struct wrap r = {x.v * (double)k + 0.5};
  return r;
}
NOINLINE v4si relay(v4si a, double d, v4si b) { return add(b, a) + (int)d; }
NOINLINE long vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long t = 0;
  for (int i = 0; i < n; i++) {
    v4si v = va_arg(ap, v4si);
    double d = va_arg(ap, double);
    t = t * 3 + v[0] - v[1] * v[2] + v[3] + (long)d;
  }
  va_end(ap);
  return t;
}
NOINLINE v4sf apply(v4sf (*f)(v4sf, v4sf), v4sf x) { return f(x, x * 2) + 1; }
NOINLINE v4sf mul(v4sf a, v4sf b) { return a * b; }

static void print4(const char *what, v4si v) { printf("%s %d %d %d %d\n", what, v[0], v[1], v[2], v[3]); }

int main(void) {
  print4("add", add((v4si){1, -2, 3, 0x7ffffff0}, (v4si){10, 20, 30, 1}));
  v2df m = mixed(1.5, (v4si){1, 2, 3, 4}, 0.25f, (v2df){-2, 8}, 3.0, (v4sf){0.5f, 1, 2, 4},
                 (v16qu){1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 200});
  printf("mixed %g %g\n", m[0], m[1]);
  print4("ten", ten((v4si){1, 2, 3, 4}, (v4si){5, 6, 7, 8}, (v4si){9, 10, 11, 12}, (v4si){-1, -2, -3, -4},
                    (v4si){100, 0, 0, 0}, (v4si){0, 100, 0, 0}, (v4si){0, 0, 100, 0}, (v4si){0, 0, 0, 100},
                    (v4si){1, 1, 1, 1}, (v4si){2, 3, 5, 7}));
  v2df p = past_doubles(1, 2, 3, 4, 5, 6, 7, 8, 9, (v2df){0.5, -0.25}, 42, (v2df){100, 1000});
  printf("past_doubles %g %g\n", p[0], p[1]);
  struct wrap w = wrapped((struct wrap){{1.25, -3}}, 4);
  printf("wrapped %g %g\n", w.v[0], w.v[1]);
  print4("relay", relay((v4si){1, 2, 3, 4}, 2.9, (v4si){40, 30, 20, 10}));
  printf("vsum %ld\n", vsum(3, (v4si){1, 2, 3, 4}, 1.0, (v4si){5, 6, 7, 8}, 2.0, (v4si){-1, 1, -1, 1}, 3.0));
  printf("vsum %ld\n", vsum(10, (v4si){1, 2, 3, 4}, 1.0, (v4si){5, 6, 7, 8}, 2.0, (v4si){9, 1, 2, 3}, 3.0,
                            (v4si){4, 5, 6, 7}, 4.0, (v4si){8, 9, 1, 2}, 5.0, (v4si){3, 4, 5, 6}, 6.0,
                            (v4si){7, 8, 9, 1}, 7.0, (v4si){2, 3, 4, 5}, 8.0, (v4si){6, 7, 8, 9}, 9.0,
                            (v4si){-9, -8, -7, -6}, 10.0));
  v4sf a = apply(mul, (v4sf){1, -2, 0.5f, 3});
  printf("apply %g %g %g %g\n", a[0], a[1], a[2], a[3]);
  return 0;
}
