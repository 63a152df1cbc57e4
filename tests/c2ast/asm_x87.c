/* expect: 5:26: error: unsupported: inline assembly constraint 't' (x87 registers) */
/* An x87 register constraint (t): refused by name. */
double root(double x) {
  double r;
  __asm__("fsqrt" : "=t"(r) : "0"(x));
  return r;
}
