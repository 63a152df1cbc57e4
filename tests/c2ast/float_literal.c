/* expect: 4:12: error: unsupported: floating point type '__float128' */
/* A __float128 operand (long double is supported; the 128-bit IEEE type is not). */
int half(int x) {
  return x * (__float128)0.5;
}
