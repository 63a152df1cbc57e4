/* The program tests/test_debug_info.py runs at -O2 under gdb for the runs
   of code between effects (value_places.h): each function assigns a
   variable between two effects (calls of g) next to code the debugger
   stops at (loads of globals, divisions, branches: is_stmt rows) whose
   order against the assignment's pure code the optimizers do not keep (a
   constant made early, a product hoisted or merged, a value computed
   before a branch). A breakpoint on every line: each variable shows the
   value gcc -O0's build shows at that line, or <optimized out>. Every
   function but `looped` runs each line once. */
#include <stdio.h>

int seen;
int G = 5, H = 7, K = 3;
__attribute__((noinline)) void g(int v) { seen += v; }

__attribute__((noinline)) int product(int a, int b) {
  int x = a;
  g(x);
  int y = G;
  x = a * b;
  int z = H;
  g(y + z);
  g(x);
  return x + y;
}

__attribute__((noinline)) int constant(int a) {
  int x = a;
  g(x);
  int y = G;
  x = 40;
  int z = H / a;
  g(y + z);
  g(x);
  return x + y;
}

__attribute__((noinline)) int merged(int a, int b) {
  int s = a + b;
  g(s);
  int t = a;
  int y = G / b;
  t = a + b;
  int z = H;
  g(y + z + t);
  g(t);
  return s + t;
}

__attribute__((noinline)) int ahead(int c, int a) {
  int x = a;
  g(x);
  int y = G;
  if (c > y) {
    x = a + 9;
    y = H;
  } else {
    y = K;
  }
  g(y);
  g(x);
  return x;
}

__attribute__((noinline)) int looped(int a, int b, int n) {
  int t = 0, s = 0;
  for (int i = 0; i < n; i++) {
    g(t);
    s += G;
    t = a * b;
    s += H / b;
  }
  g(s);
  return t;
}

__attribute__((noinline)) int quotient(int a, int b) {
  int q = a;
  g(q);
  q = a / b;
  int r = G % b;
  q = q + r;
  int w = H / b;
  g(q);
  g(w);
  return q;
}

volatile int four = 4;

int main(void) {
  int r = product(four, 3);
  r += constant(four);
  r += merged(four, 6);
  r += ahead(9, four);
  r += looped(four, 3, 3);
  r += quotient(four + 30, 3);
  printf("%d %d\n", r, seen);
  return 0;
}
