/* expect: 4:41: error: unsupported: inline assembly immediate operand that is not an integer constant */
/* An immediate (i) operand that is not an integer constant expression. */
int f(int x, int y) {
  __asm__("addl %1, %0" : "+r"(x) : "i"(y));
  return x;
}
