/* K&R-style function definitions and calls through declarations without
   a prototype: the caller applies the default argument promotions (char,
   short and _Bool arguments travel as int, float as double), the callee converts each
   argument back to its declared parameter type on entry (a char parameter
   given 300 holds 44: narrowing wraps, the x86-64 ABI choice gcc and the
   toolchain share), called directly, before their definition through an
   old-style declaration, and through a function pointer. */
#include <stdio.h>

int later();
static long mix();

int narrow(c, s, b, l)
  signed char c;
  short s;
  _Bool b;
  long l;
{
  return c * 100000 + s + b + (int)(l % 1000);
}

static unsigned widen(u, x)
  unsigned char u;
  unsigned x;
{
  return u * 2u + x;
}

float scaled(f, k)
  float f;
  int k;
{
  return f * k + 0.5f;
}

int sum_to(n)
  int n;
{
  return n <= 0 ? 0 : n + sum_to(n - 1);
}

int apply(f, a, b)
  int (*f)();
  int a, b;
{
  return f(a, b);
}

int main(void) {
  int total = 0;
  total += narrow(300, 70000, 1, 123456789L);
  printf("narrow %d\n", narrow(300, 70000, 1, 123456789L));
  printf("narrow %d\n", narrow(-3, -5, 0, -7L));
  printf("widen %u %u\n", widen(511, 1u), widen(255, 4000000000u));
  printf("sum_to %d\n", sum_to(100));
  float third = 1.0f / 3.0f, (*sp)() = scaled;
  printf("scaled %.9g %.9g\n", scaled(third, 3), sp(2.25f, 2));
  printf("later %d\n", later(6, 7));
  printf("mix %ld\n", mix(40000, 'a', 1L << 40));
  printf("apply %d\n", apply(later, 11, 12));
  int (*fp)() = narrow;
  printf("pointer %d\n", fp(1, 2, 1, 3L));
  total += later(2, 3) + (int)mix(1, 2, 3L) + fp(0, 0, 0, 0L);
  printf("total %d\n", total);
  return total % 256;
}

int later(a, b)
  int a, b;
{
  return a * b;
}

static long mix(s, c, l)
  short s;
  char c;
  long l;
{
  return s * 1000L + c + (l >> 20);
}
