/* Variadic calls through function pointers (issue 17, item 4): a callee
   loaded from a table right before each call, a callee passed as a
   parameter and kept across calls under register pressure, and a
   printing variadic function called through a pointer with its own
   arguments as the variadic ones. Before a variadic call the caller writes the
   number of vector registers used into al, so the register holding the
   callee must not be rax; pipecc -O2 put it there and codegen-x64
   refused the call. */
#include <stdarg.h>
#include <stdio.h>

typedef long (*variadic_fn)(int, ...);

static long sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long);
  va_end(ap);
  return s;
}

static long weighted(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * va_arg(ap, long);
  va_end(ap);
  return s;
}

static variadic_fn table[2] = {sum, weighted};

static long show(const char *label, int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  printf("%s:", label);
  for (int i = 0; i < n; i++) {
    long v = va_arg(ap, long);
    printf(" %ld", v);
    s += v;
  }
  printf("\n");
  va_end(ap);
  return s;
}

/* The callee comes from memory just before each call. */
static long through_table(long a, long b, long c) {
  long t = 0;
  for (int i = 0; i < 4; i++) t += table[i & 1](3, a + i, b, c);
  return t;
}

/* The callee is a parameter, live across the calls, with many values
   live around it. */
static long through_param(variadic_fn f, long a, long b, long c, long d, long e) {
  long x = f(5, a, b, c, d, e);
  long y = f(4, x, a * b, c * d, e);
  long z = f(2, y, x + a);
  return x ^ y ^ z ^ a ^ b ^ c ^ d ^ e;
}

/* A callee chosen by a computed index, its result feeding the next call. */
static long chained(int k) {
  long v = k;
  for (int i = 0; i < 6; i++) v = table[(k + i) % 2](2, v, (long)i) % 100003;
  return v;
}

int main(void) {
  long (*pf)(const char *, int, ...) = show;
  long t = through_table(1, 2, 3);
  long p1 = through_param(sum, 1, 2, 3, 4, 5);
  long p2 = through_param(weighted, 7, 8, 9, 10, 11);
  long c = chained(3);
  printf("%ld %ld %ld %ld\n", t, p1, p2, c);
  long s = pf("through a pointer", 3, 42L, through_table(5, 6, 7), t + c);
  return (int)((t + p1 + p2 + c + s) % 256);
}
