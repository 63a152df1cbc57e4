/* fib.c - recursion: naive Fibonacci, call overhead and small frames. */
#include "common.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 38);
  printf("fib(%ld) = %d\n", n, fib((int)n));
  return 0;
}
