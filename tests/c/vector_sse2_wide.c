/* vector_sse2_wide.c - GNU C operators on 16-byte vectors of 64-bit,
   float and double lanes (vector_sse2_ops.c: the narrower integers), the
   ones SSE2 does in one instruction (c2ast's ast:v128.op: add, sub,
   and/or/xor, ==, signed > and <, 16-bit *, shifts by a constant, unary
   -, float/double + - * / and compares) next to the ones it does not
   (written out element by element: 8/32/64-bit *, / and %, unsigned and
   64-bit compares, shifts by a variable), with wrap-around, NaN and signed
   zero cases; compound assignment, operands with side effects evaluated
   once, results stored through pointers (a function that is not static
   takes its vectors by address; tests/c/vector_abi.c passes them by
   value). Relies on x86-64: plain char is
   signed, >> of a negative lane is arithmetic. */
#include <stdio.h>
#include <string.h>

typedef signed char v16qi __attribute__((vector_size(16)));
typedef unsigned char v16uqi __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef unsigned short v8uhi __attribute__((vector_size(16)));
typedef int v4si __attribute__((vector_size(16)));
typedef unsigned v4usi __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
typedef unsigned long long v2udi __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));

static void bytes(const char *name, const void *p) {
  const unsigned char *b = p;
  printf("%-12s", name);
  for (int i = 0; i < 16; i++) printf("%02x", b[i]);
  printf("\n");
}
#define SHOW(name, ...)         \
  do {                          \
    __typeof__(__VA_ARGS__) t_ = __VA_ARGS__; \
    bytes(name, &t_);           \
  } while (0)

void fma4(v4sf *r, const v4sf *a, const v4sf *b, const v4sf *c) { *r = *a * *b + *c; }

int main(void) {
  v2di l1 = {0x7ffffffffffffff0LL, -3};
  v2di l2 = {1, -4};
  SHOW("di+", l1 + l2);
  SHOW("di-", l1 - l2);
  SHOW("di*", l1 * l2);
  SHOW("di==", l1 == l2);
  SHOW("di>", l1 > l2);
  SHOW("udi<<63", (v2udi)l1 << 63);
  SHOW("di>>63", l1 >> 63);
  SHOW("udi>>60", (v2udi)l2 >> 60);
  SHOW("di^", l1 ^ l2);

  v4sf f1 = {1.5f, -0.0f, 3.0f, 1e30f};
  v4sf f2 = {0.25f, 0.0f, __builtin_nanf(""), 1e30f};
  SHOW("sf+", f1 + f2);
  SHOW("sf-", f1 - f2);
  SHOW("sf*", f1 * f2);
  SHOW("sf/", f1 / f2);
  SHOW("sf==", f1 == f2);
  SHOW("sf!=", f1 != f2);
  SHOW("sf<", f1 < f2);
  SHOW("sf<=", f1 <= f2);
  SHOW("sf>", f1 > f2);
  SHOW("sf>=", f1 >= f2);
  SHOW("sf-u", -f1);
  v4sf fr;
  fma4(&fr, &f1, &f2, &f1);
  SHOW("fma", fr);
  SHOW("sf*2", f1 * 2.0f);

  v2df d1 = {1.0 / 3.0, -2.5};
  v2df d2 = {3.0, __builtin_inf()};
  SHOW("df+", d1 + d2);
  SHOW("df*", d1 * d2);
  SHOW("df/", d1 / d2);
  SHOW("df-", d2 - d1);
  SHOW("df<", d1 < d2);
  SHOW("df>=", d1 >= d2);
  SHOW("df!=", d1 != d2);
  double back[2];
  v2df sum = d1 + d2;
  memcpy(back, &sum, sizeof back);
  printf("%.17g %g\n", back[0], back[1]);
  return 0;
}
