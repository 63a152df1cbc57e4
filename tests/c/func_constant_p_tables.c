/* __builtin_constant_p after inlining and calls through constant tables of
   functions (issue 21's devirtualization). Whatever the optimizer answers,
   the program prints the same thing: every use below takes a fast path
   only when it computes what the general path does (the way real code uses
   the builtin), so gcc -O0 (all 0) and an optimizing build (1 where an
   inlined argument is constant) agree. The tables are `static const`, so a
   call at a constant index names its callee. */
#include <stdio.h>

static inline int popcount_any(unsigned x) {
  if (__builtin_constant_p(x) && x == 0) return 0;
  int n = 0;
  while (x) {
    n += x & 1;
    x >>= 1;
  }
  return n;
}

static inline long scaled(long v, int shift) {
  if (__builtin_constant_p(shift) && shift == 0) return v;
  return v << shift;
}

static int add1(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int sq(int x) { return x * x; }
static int (*const ops[])(int) = {add1, dbl, sq};

struct vtable {
  const char *name;
  int (*apply)(int);
};
static const struct vtable shapes[] = {{"add1", add1}, {"dbl", dbl}, {"sq", sq}};

static int run_all(int x) {
  int acc = 0;
  for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; ++i) acc = acc * 31 + ops[i](x);
  return acc;
}

int main(void) {
  int total = 0;
  for (unsigned i = 0; i < 40; ++i) total += popcount_any(i * 2654435761u) + popcount_any(0);
  printf("popcounts %d\n", total);
  printf("scaled %ld %ld %ld\n", scaled(5, 0), scaled(5, 3), scaled(9, 1));
  int k = 2;
  printf("const index %d %d %d\n", ops[0](10), ops[1](10), ops[k](10));
  printf("members %s=%d %s=%d\n", shapes[1].name, shapes[1].apply(7), shapes[2].name, shapes[2].apply(7));
  printf("run_all %d\n", run_all(3));
  int var = total & 3;
  printf("constant_p of a computed value is %s\n", __builtin_constant_p(var * 0 + 1) ? "folded or not" : "folded or not");
  return 0;
}
