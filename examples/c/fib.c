/* Recursion: the call and its two results (memory, value) through proj. */
#include <stdio.h>

static int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

int main(void) {
  printf("fib(15) = %d\n", fib(15));
  return 0;
}
