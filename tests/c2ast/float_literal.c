/* expect: 4:12: error: unsupported: long double type 'long double' */
/* A long double literal converted to int. */
int half(int x) {
  return x * 0.5L;
}
