/* expect: 5:10: error: unsupported: '__builtin_add_overflow' with a _Bool or enum result */
/* A _Bool result holds only 0 or 1: the fit check is not written for it. */
int f(int a, int b) {
  _Bool r;
  return __builtin_add_overflow(a, b, &r);
}
