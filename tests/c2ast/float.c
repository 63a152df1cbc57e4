/* expect: 4:10: error: unsupported: floating point type 'double' */
/* A floating-point local variable. */
int main(void) {
  double d = 1.5;
  return (int)d;
}
