/* expect: 5:24: error: unsupported: complex type '_Complex long double' */
/* _Complex float, double and the integer types are supported; _Complex
   long double waits for long double (x87's 80-bit format). */
int main(void) {
  _Complex long double z = 0;
  return 0;
}
