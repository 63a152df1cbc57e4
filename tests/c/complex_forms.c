/* complex_forms.c - _Complex values in every place C puts a value: ?:,
   statement expressions, compound literals, designated initializers of
   arrays and struct members (global and local), static locals, calls
   through a function pointer, va_arg of _Complex float and double, truth
   tests with && and ||, conversions to _Bool and to a real type. */
#include <stdarg.h>
#include <stdio.h>

typedef _Complex double cd;
typedef _Complex float cf;

/* noinline: inlining it after the statement expression below leaves sonopt -O2
   short of a fixed point (a second run removes more copies; structs too). */
__attribute__((noinline)) static cd pick(int c, cd a, cd b) { return c ? a : b; }

static double vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int i = 0; i < n; i++) {
    cf z = va_arg(ap, cf);
    cd w = va_arg(ap, cd);
    t += __real__ z * __imag__ w - __imag__ z;
  }
  va_end(ap);
  return t;
}

struct S { cf a[2]; cd b; };
static struct S gs = {.a = {[1] = 2.0f + 3.0fi}, .b = 4.0};
cd (*fp)(int, cd, cd) = pick;

static cd counter(void) {
  static cd st = 9.0 - 1.0i;
  st *= 1.0i;
  return st;
}

int main(void) {
  cd a = 1 + 2i, b = 3 - 4i;
  cd c = 1 > 0 ? a : 5.0;
  cd d = ({ cd t = a * 2; t + b; });
  cd e = (cd){1.5} + (cf){2.5fi};
  cf f[3] = {[2] = 7.0f};
  cd g = fp(0, a, b) + pick(1, c, d);
  struct S s = {{1.0f, 2.0fi}, a + b};
  s.a[0] += s.a[1] * 2;
  printf("%g %g %g %g %g %g %g %g\n", __real__ d, __imag__ d, __real__ e, __imag__ e, __real__ f[2], __imag__ f[1],
         __real__ g, __imag__ g);
  printf("%g %g %g %g %g\n", __real__ s.a[0], __imag__ s.a[0], __real__ s.b, __imag__ gs.a[1], __real__ gs.b);
  printf("%g\n", vsum(2, 1.0f + 2.0fi, 3.0 + 4.0i, -1.0f + 0.5fi, 2.0 - 2.0i));
  for (int i = 0; i < 3; i++) {
    cd z = counter();
    printf("counter %g %g\n", __real__ z, __imag__ z);
  }
  cd z = 0;
  z = a ? b : c;
  printf("%g\n", __imag__ z);
  _Bool bb = a;
  int k = !b;
  double r = (double)(a * b);
  printf("%d %d %g %d %d\n", bb, k, r, a == b || (a != b && b), z && 0.0i);
  return 0;
}
