/* Calls through function pointers: a parameter, a table entry, and an
   explicit dereference; a call to a variadic libc function. */
#include <stdio.h>

static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }
static int (*const ops[])(int) = {twice, negate};

int apply(int (*f)(int), int x) { return f(x) + ops[1](x) + (*f)(1); }

int main(void) {
  printf("%d\n", apply(twice, 5));
  return 0;
}
