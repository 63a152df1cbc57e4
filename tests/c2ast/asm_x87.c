/* expect: 5:26: error: unsupported: x87 inline assembly output constraint '+t' */
/* An x87 operand read and written (+t): refused by name (the form gcc's
   manual and glibc use, "=t" with the input tied by "0", is supported). */
double root(double r) {
  __asm__("fsqrt" : "+t"(r));
  return r;
}
