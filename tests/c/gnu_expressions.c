/* GNU C expressions (stages/c2ast/gnu_expressions.cpp): statement
   expressions used as values (nested, with loops, declarations and a break
   out of the enclosing loop), `a ?: b` evaluating a once, casts to a union
   (scalar and struct members), and case ranges (characters, negative,
   unsigned, one value, empty). */
#include <stdio.h>

static int calls;
static int next(int v) { calls++; return v; }

struct halves { short lo, hi; };
union number { int i; unsigned char bytes[4]; struct halves halves; long l; };

static int classify(int c) {
  switch (c) {
  case '0' ... '9': return 1;
  case 'a' ... 'f':
  case 'A' ... 'F': return 2;
  case -10 ... -1: return 3;
  case 1000 ... 1000: return 4;
  default: return 0;
  }
}

static int classify_unsigned(unsigned u) {
  switch (u) {
  case 0xfffffff0u ... 0xffffffffu: return 1;
  case 0 ... 3: return 2;
  }
  return 0;
}

static union number from_int(int v) { return (union number)v; }

int main(void) {
  int total = ({ int a = 3, b = 4; a * b; });
  int nested = ({ int x = ({ int y = total; y + 1; }); x * 2; });
  int sum = ({
    int s = 0;
    for (int i = 0; i < 10; i++) s += i;
    s;
  });
  printf("stmt expr %d %d %d\n", total, nested, sum);
  int i = 0, last = -1;
  while (1) {
    last = ({
      if (i > 4) break; /* leaves the statement expression and the loop */
      i++;
      i * 10;
    });
  }
  printf("break out %d %d\n", i, last);

  int *p = 0, target = 7;
  int *q = p ?: &target;
  int v = next(5) ?: next(6);
  int w = next(0) ?: next(8);
  long wide = next(3) ?: 9L;
  printf("elvis %d %d %d %ld calls %d\n", *q, v, w, wide, calls);

  union number n = from_int(0x01020304);
  printf("union int %#x bytes %d %d\n", n.i, n.bytes[0], n.bytes[3]);
  struct halves h = {-2, 5};
  union number m = (union number)h;
  printf("union struct %d %d\n", m.halves.lo, m.halves.hi);
  union number k = (union number)123456789L;
  printf("union long %ld\n", k.l);

  const char *text = "09afAFzZ";
  for (const char *c = text; *c; c++) printf("%d", classify(*c));
  printf(" %d %d %d %d %d\n", classify(-5), classify(-11), classify(1000), classify(0), classify(500));
  printf("%d %d %d %d\n", classify_unsigned(0xffffffffu), classify_unsigned(0xfffffff0u), classify_unsigned(2),
         classify_unsigned(4));
  return 0;
}
