/* expect: 5:23: error: unsupported: complex type '_Complex __float128' */
/* _Complex float, double, long double and the integer types are
   supported; a complex type of an unsupported element type is not. */
int main(void) {
  _Complex __float128 z = 0;
  return 0;
}
