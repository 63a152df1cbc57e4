/* Function pointers: tables of operations, passing and returning them, comparing them. */
#include <stdio.h>

typedef long (*binop)(long, long);

static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long mul(long a, long b) { return a * b; }
static long quo(long a, long b) { return b ? a / b : 0; }
static long rem(long a, long b) { return b ? a % b : 0; }

static const binop ops[] = {add, sub, mul, quo, rem};
static const char opchars[] = "+-*/%";

static binop lookup(char c) {
  for (int i = 0; i < 5; i++)
    if (opchars[i] == c) return ops[i];
  return 0;
}

static long fold(binop f, const long *v, int n, long init) {
  long acc = init;
  for (int i = 0; i < n; i++) acc = f(acc, v[i]);
  return acc;
}

static int apply_twice(int (*f)(int), int x) { return f(f(x)); }
static int inc(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int (*pick(int which))(int) { return which ? dbl : inc; }

int main(void) {
  long vals[] = {3, 8, 2, 9, 4};
  for (int i = 0; i < 5; i++) printf("13 %c 4 = %ld\n", opchars[i], ops[i](13, 4));
  printf("sum %ld product %ld\n", fold(add, vals, 5, 0), fold(mul, vals, 5, 1));
  printf("lookup: %ld %ld\n", lookup('*')(6, 7), (*lookup('-'))(6, 7));
  printf("unknown is null: %d\n", lookup('?') == 0);
  printf("lookup('+') == add: %d, == sub: %d\n", lookup('+') == add, lookup('+') == sub);
  printf("apply_twice: %d %d\n", apply_twice(inc, 5), apply_twice(dbl, 5));
  printf("pick: %d %d\n", pick(0)(10), pick(1)(10));
  /* A function pointer stored in a local and reassigned in a loop. */
  int (*f)(int) = inc;
  int x = 1;
  for (int i = 0; i < 10; i++) {
    x = f(x);
    f = (f == inc) ? dbl : inc;
  }
  printf("x %d\n", x);
  /* Array of pointers to functions returning pointers. */
  int total = 0;
  for (int i = 0; i < 8; i++) total += pick(i & 1)(i);
  printf("total %d\n", total);
  return (int)(fold(sub, vals, 5, 100) + x) % 256;
}
