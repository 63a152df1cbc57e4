/* The program tests/test_debug_info.py runs at -O2 under gdb: parameters
   that live across calls (the allocator copies them to callee-saved
   registers or spill slots), one the function reassigns (not the value it
   arrived with any more), and a recursion that sonopt's tail-recurse turns
   into a loop (its parameter changes on every trip). A debugger must show
   each parameter's value or <optimized out>, never another value. */
#include <stdio.h>

__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) int keep(int a, long b, const char *s, double d) {
  int r = leaf(a);
  r += leaf((int)b);
  r += s[0];
  return r + (int)(d * 2.0) + a + (int)b;
}

__attribute__((noinline)) int changes(int n, int m) {
  n = n * 2 + m;
  return leaf(n) + m;
}

__attribute__((noinline)) int tri(int n) { return n <= 0 ? 0 : n + tri(n - 1); }

volatile int four = 4;  /* read at run time: no call is evaluated while compiling */

int main(void) {
  int r = keep(four + 1, 7L, "hi", 1.5);
  r += changes(four, 9);
  r += tri(four);
  printf("%d\n", r);
  return 0;
}
