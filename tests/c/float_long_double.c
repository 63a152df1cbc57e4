/* float_long_double.c - long double (x87 80-bit, issue 18): arithmetic
   rounded to its 64-bit significand, conversions at their limits (every
   integer width both signs, float and double), NaN, infinities and -0.0,
   compound assignment and ++, globals, arrays and struct members, a
   struct holding a long double returned in st(0), variadic reads with
   va_arg. Values are printed by their 10 bytes, so every bit is compared
   with gcc's (printf's %L conversions: float_long_double_printf.c, and
   tests/interop/lda.c natively). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct Rec { int id; long double v; char tag; };
struct One { long double v; };

long double scale = 1.25L;
long double table[3] = {1.0L, -2.5L, 3.0e100L};
struct Rec global_rec = {7, 0.1L, 'g'};

static void bytes(const char *name, long double v) {
  unsigned char b[10];
  memcpy(b, &v, 10);
  printf("%-8s", name);
  for (int i = 9; i >= 0; --i) printf("%02x", b[i]);
  printf("\n");
}

static long double sum3(long double a, long double b, long double c) { return a + b * c; }
static struct One twice(long double v) { struct One o = {v * 2}; return o; }
static struct Rec make(int id, long double v) { struct Rec r = {id, v, 'm'}; return r; }

static long double vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double t = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 2) t += va_arg(ap, double);
    else t = t * 3 + va_arg(ap, long double);
  }
  va_end(ap);
  return t;
}

int main(void) {
  long double third = 1.0L / 3.0L, two = 2.0L;
  bytes("third", third);
  bytes("ops", (third + two) * (third - two) / scale);
  bytes("neg", -third);
  bytes("sum3", sum3(third, two, scale));
  bytes("twice", twice(third).v);
  struct Rec r = make(3, third);
  printf("rec %d %c ", r.id, r.tag);
  bytes("", r.v);
  bytes("global", global_rec.v + table[1] + table[2] / 1e99L);
  bytes("vsum", vsum(4, third, 0.5, two, -1.25));
  printf("cmp %d %d %d %d %d %d\n", third < two, third <= two, third > two, third >= two, third == two, third != two);
  long double nan = __builtin_nanl(""), inf = HUGE_VALL, mzero = -0.0L;
  printf("nan %d %d %d %d %d\n", nan < two, nan == nan, nan != nan, isnan(nan), !nan);
  printf("inf %d %d %d %d\n", isinf(inf), isinf(-inf), isfinite(third), isinf(nan));
  printf("zero %d %d %d\n", mzero == 0.0L, signbit(mzero) != 0, !mzero);
  printf("class %d %d %d %d %d\n", fpclassify(third), fpclassify(mzero), fpclassify(nan), fpclassify(inf),
         fpclassify(LDBL_MIN / 4));
  bytes("min", LDBL_MIN);
  bytes("max", LDBL_MAX);
  bytes("eps", LDBL_EPSILON);
  bytes("fabs", fabsl(-third));
  bytes("copysign", copysignl(third, -1.0L));
  printf("to %d %ld %lu %u %d %d\n", (int)(two * 100), (long)(-two * 1e10L), (unsigned long)1e19L,
         (unsigned)4e9L, (short)-two, (signed char)(third * 300));
  printf("limits %ld %lu %lu %d\n", (long)-9223372036854775808.0L, (unsigned long)18446744073709549568.0L,
         (unsigned long)9223372036854775808.0L, (int)2147483647.9L);
  bytes("ulmax", (long double)18446744073709551615ul);
  bytes("ulhigh", (long double)9223372036854775809ul);
  bytes("long", (long double)-5L);
  bytes("uint", (long double)4000000000u);
  bytes("schar", (long double)(signed char)-3);
  bytes("double", (long double)0.1);
  bytes("float", (long double)0.1f);
  printf("narrow %.17g %.9g %.17g\n", (double)third, (float)third, (double)(LDBL_MAX));
  long double h = 0;
  for (int i = 1; i <= 20; ++i) h += 1.0L / i;
  bytes("harmonic", h);
  long double c = 5;
  c++;
  ++c;
  c--;
  c *= 3;
  c /= 2;
  c -= 0.5L;
  long double old = c++;
  bytes("inc", c - old);
  double d = 1.5;
  d += third;
  int k = 10;
  k *= third;
  printf("mixed %.17g %d %d %d\n", d, k, third ? 1 : 2, (_Bool)mzero);
  return 0;
}
