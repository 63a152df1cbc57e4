/* The program tests/test_debug_info.py runs at -O2 under gdb for the
   positions of debug value bindings: assignments whose value the code
   computes before the assignment (a constant, a value GVN merged with an
   earlier one, a loop invariant licm hoists, a copy of another variable).
   At every call of g() each caller's variable must show the value gcc -O0's
   build shows there, or <optimized out>: never the value of an assignment
   that has not happened yet, nor a value the variable had before an
   assignment the optimizers deleted (deleted()'s loop goes: its trip
   count is known and it has no effect). promoted()'s x has its address taken, so it
   lives in memory until inlining and scalar replacement make values of
   it. */
#include <stdio.h>

int seen;
__attribute__((noinline)) void g(int v) { seen += v; }

__attribute__((noinline)) int consts(void) {
  int x = 1;
  g(x);
  x = 2;
  g(x);
  x = 3;
  g(x);
  return x;
}

__attribute__((noinline)) int invariant(int a, int b, int n) {
  int t = 0;
  for (int i = 0; i < n; i++) {
    g(t);
    t = a * b;
  }
  return t;
}

__attribute__((noinline)) int copied(int y) {
  int x = 7;
  g(x);
  x = y;
  g(x);
  return x;
}

__attribute__((noinline)) int merged(int a, int b) {
  int x = a + b;
  g(x);
  {
    int y = 5;
    g(y);
    y = a + b;
    g(y);
    return y;
  }
}

__attribute__((noinline)) int branch(int c, int a) {
  int x = a * 3;
  if (c) {
    g(x);
    x = a + 1;
  } else {
    g(x);
  }
  g(x);
  return x;
}

__attribute__((noinline)) int picked(int c, int a) {
  int x = a * 3;
  g(x);
  if (c)
    x = a + 9;
  g(x);
  return x;
}

__attribute__((noinline)) int deleted(int n) {
  int s = n, i;
  g(s);
  for (i = 0; i < 10; i++)
    s += 3;
  g(n);
  return s + i;
}

__attribute__((noinline)) int unread(int c, int a) {
  int y = a + 9;
  g(y);
  int x = a * 2;
  if (c)
    x = y;
  g(y);
  return y;
}

static void set(int *p, int v) { *p = v; }

__attribute__((noinline)) int promoted(int a) {
  int x;
  set(&x, a + 1);
  g(x);
  set(&x, a * 5);
  g(x);
  x += 2;
  g(x);
  return x;
}

volatile int four = 4;

int main(void) {
  int r = consts();
  r += invariant(four, 3, 3);
  r += copied(four + 2);
  r += merged(four, 6);
  r += branch(1, four) + branch(0, four);
  r += promoted(four);
  r += picked(1, four) + picked(0, four);
  r += deleted(four);
  r += unread(1, four) + unread(0, four);
  printf("%d %d\n", r, seen);
  return 0;
}
