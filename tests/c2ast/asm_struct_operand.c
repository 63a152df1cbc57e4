/* expect: 6:41: error: unsupported: inline assembly register operand of type 'struct s' */
/* A struct in a register operand. */
struct s { int a, b; };
int f(struct s v) {
  int r;
  __asm__("movl %1, %0" : "=r"(r) : "r"(v));
  return r;
}
