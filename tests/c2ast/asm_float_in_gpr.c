/* expect: 5:41: error: unsupported: inline assembly floating-point operand in a general register (use 'x') */
/* A double in a general register (gcc moves its bits; we ask for x). */
int f(double x) {
  int r;
  __asm__("movl %1, %0" : "=r"(r) : "r"(x));
  return r;
}
