/* complex_int.c - GNU C's _Complex integer types: char, short, int, long,
   unsigned; arithmetic (multiply as (ac - bd, ad + bc), divide as gcc's
   Smith's method with truncating division), conversions between complex
   integer and floating types, comparisons, compound assignment, ++,
   initializers, struct members and arguments. No operation overflows. */
#include <stdio.h>

typedef _Complex int ci;
typedef _Complex unsigned cu;

struct pair { _Complex char c; _Complex short s; _Complex long l; };
struct pair gpair = {1 + 2i, -300 + 400i, 5000000000L - 7i};
ci table[4] = {1 + 1i, 2 - 3i, -4 + 5i, 6};

static void show(const char* what, ci z) { printf("%-8s %d %d\n", what, __real__ z, __imag__ z); }

static ci divide(ci a, ci b) { return a / b; }
static cu udivide(cu a, cu b) { return a / b; }

static long norm(_Complex long z) { return __real__ z * __real__ z + __imag__ z * __imag__ z; }

int main(void) {
  ci a = 7 + 3i, b = -2 + 5i;
  show("add", a + b);
  show("sub", a - b);
  show("mul", a * b);
  show("neg", -a);
  show("conj", ~a);
  show("int*z", 4 * b);
  show("z/int", a / 2);
  static const ci num[] = {100 + 50i, -100 + 50i, 7, 0 + 9i, -81 - 27i};
  static const ci den[] = {3 + 4i, 2 - 7i, -1 + 1i, 5 + 2i, 3 - 9i};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) {
      ci q = divide(num[i], den[j]);
      printf("%d/%d: %d %d\n", i, j, __real__ q, __imag__ q);
    }
  cu u = udivide(42, 7);
  cu v = udivide(1000u + 10u * 1i, 3u + 0u * 1i);
  printf("unsigned %u %u %u %u\n", __real__ u, __imag__ u, __real__ v, __imag__ v);

  /* conversions */
  _Complex double d = a;
  ci back = (ci)(2.75 - 3.5i);
  _Complex char c = 300 + 2i; /* wraps: implementation-defined, gcc and we both truncate */
  printf("conv %g %g %d %d %d %d\n", __real__ d, __imag__ d, __real__ back, __imag__ back, __real__ c, __imag__ c);
  int r = a;
  printf("real %d %d\n", r, (int)(_Bool)(0 + 1i));

  /* comparisons and truth */
  printf("cmp %d %d %d %d\n", a == 7 + 3i, a != b, table[3] == 6, !(ci)0);

  /* compound assignment, ++ */
  ci acc = 1;
  for (int i = 0; i < 4; i++) {
    acc *= 1 + 1i;
    acc += table[i];
    acc -= i * 1i;
  }
  show("acc", acc);
  acc = acc * 100 + 37i;
  acc /= 3 - 1i;
  show("acc/", acc);
  ci p = 5 + 5i;
  p++;
  --p;
  ++p;
  show("inc", p);

  /* members */
  gpair.c *= 2;
  gpair.s = gpair.s / (ci)(10 + 0i);
  printf("pair %d %d %d %d %ld %ld %ld\n", __real__ gpair.c, __imag__ gpair.c, __real__ gpair.s,
         __imag__ gpair.s, __real__ gpair.l, __imag__ gpair.l, norm(gpair.l - 5000000000L));
  return 0;
}
