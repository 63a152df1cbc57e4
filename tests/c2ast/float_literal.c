/* expect: 4:12: error: unsupported: floating point type 'double' */
/* A floating-point literal converted to int. */
int half(int x) {
  return x * 0.5;
}
