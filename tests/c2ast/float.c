/* expect: 5:15: error: unsupported: long double type 'long double' */
/* A long double local variable: float and double are supported, x87's
   80-bit long double is not yet (issue 18). */
int main(void) {
  long double d = 1.5;
  return (int)d;
}
