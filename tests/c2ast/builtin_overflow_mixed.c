/* expect: 5:10: error: unsupported: '__builtin_mul_overflow' on 64-bit operands of different types */
/* 64-bit operands of different signedness: no exact check written for the mix yet. */
int f(long a, unsigned long b) {
  long r;
  return __builtin_mul_overflow(a, b, &r);
}
