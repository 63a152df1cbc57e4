/* expect: 5:24: error: unsupported: complex type '_Complex long double' */
/* _Complex long double: long double itself is supported (issue 18), its
   complex form is not yet, and says so by name. */
int main(void) {
  _Complex long double d = 1.5;
  return 0;
}
