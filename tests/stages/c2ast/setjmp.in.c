/* A function that calls setjmp: every access to its locals (the parameter's
   variable included) is volatile, and it is never inlined. */
#include <setjmp.h>

static jmp_buf env;

int guarded(int n) {
  int tries = 0;
  struct { int a, b; } pair = {n, 2 * n};
  if (setjmp(env)) tries++;
  return tries + pair.b + n;
}
