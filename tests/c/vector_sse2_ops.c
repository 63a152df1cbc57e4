/* vector_sse2_ops.c - GNU C operators on 16-byte vectors of 8-, 16- and
   32-bit integer lanes (vector_sse2_wide.c: 64-bit, float, double), the
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

static int calls;
static v4si *pick(v4si *p) {
  calls++;
  return p;
}

void add4(v4si *r, const v4si *a, const v4si *b) { *r = *a + *b; }
void mix(v8uhi *r, const v8uhi *a, const v8uhi *b) { *r = (*a * *b) ^ (*a << 3) ^ (*b >> 2); }

int main(void) {
  v16qi c1 = {1, -2, 127, -127, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 100, -100};
  v16qi c2 = {1, 3, 0, -1, -5, 6, 0, 9, 9, -10, 11, 2, 13, 14, 27, -28};
  SHOW("qi+", c1 + c2);
  SHOW("qi-", c1 - c2);
  SHOW("uqi*", (v16uqi)c1 * (v16uqi)c2); /* unsigned lanes wrap */
  SHOW("qi==", c1 == c2);
  SHOW("qi>", c1 > c2);
  SHOW("qi<", c1 < c2);
  SHOW("qi>=", c1 >= c2);
  SHOW("qi-u", -c1);
  SHOW("qi&|^", (c1 & c2) | (c1 ^ c2));
  v16uqi u1 = (v16uqi)c1, u2 = (v16uqi)c2;
  SHOW("uqi>", u1 > u2);
  SHOW("uqi/", u1 / (u2 | 1));

  v8hi h1 = {1000, -1000, 32767, -32768, 300, 7, -7, 12345};
  v8hi h2 = {1000, 3, -2, 1, -300, 7, 9, -2};
  SHOW("hi+", h1 + h2);
  SHOW("uhi*", (v8uhi)h1 * (v8uhi)h2);
  SHOW("uhi<<3", (v8uhi)h1 << 3);
  SHOW("hi>>15", h1 >> 15);
  SHOW("hi>>2", h1 >> 2);
  SHOW("hi<", h1 < h2);
  SHOW("hi%", h1 % (v8hi){7, 3, 5, 9, -11, 13, 2, 100});
  v8uhi uh = (v8uhi)h1, uh2 = (v8uhi)h2;
  SHOW("uhi>>4", uh >> 4);
  v8uhi m;
  mix(&m, &uh, &uh2);
  SHOW("mix", m);

  v4si i1 = {0x7ffffff0, -5, 1000, 3};
  v4si i2 = {-2, -7, 70000, -1};
  v4si r;
  add4(&r, &i1, &i2);
  SHOW("si+", r);
  SHOW("si-", i1 - i2);
  SHOW("si*", (i1 >> 8) * i2);
  SHOW("si/", i1 / i2);
  SHOW("si==", i1 == (v4si){0x7ffffff0, 0, 1000, 0});
  SHOW("si>", i1 > i2);
  SHOW("si<=", i1 <= i2);
  v4usi ui = (v4usi)i1;
  SHOW("usi<<31", ui << 31);
  SHOW("si>>1", i1 >> 1);
  SHOW("si-u", -i1);
  int n = 5;
  SHOW("usi<<n", ui << n);
  SHOW("usi<<v", ui << (v4usi){0, 1, 2, 31});
  SHOW("usi>>31", ui >> 31);
  SHOW("usi<", ui < (v4usi)i2);
  v4si acc = {1, 2, 3, 4};
  acc += i1;
  acc -= i2;
  acc &= (v4si){-1, 0xff, -1, 0};
  acc |= (v4si){0x100, 0, 0, 7};
  acc >>= 2;
  SHOW("si op=", acc);
  v4si cell = {1, 1, 1, 1};
  *pick(&cell) += i2;  /* the address once */
  SHOW("si once", cell);
  printf("calls %d\n", calls);

  return 0;
}
