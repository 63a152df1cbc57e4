/* The program tests/test_debug_info.py runs at -O2 under gdb for debug
   value bindings: a loop counter, an accumulator and a local the loop
   reassigns, all kept in registers, and parameters, at a call in the
   loop (the caller's frame, as `up` shows it) and at every instruction.
   A debugger must show each variable's value or <optimized out>, never
   another value. */
#include <stdio.h>

__attribute__((noinline)) int work(int i) { return i * i + 1; }

__attribute__((noinline)) int sum(int n, int step) {
  int s = 0;
  int last = -1;
  for (int i = 0; i < n; i += step) {
    last = work(i);
    s += last;
  }
  return s + last;
}

volatile int five = 5;

int main(void) {
  printf("%d\n", sum(five, 1));
  return 0;
}
