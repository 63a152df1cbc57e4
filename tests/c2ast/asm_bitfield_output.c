/* expect: 5:35: error: unsupported: inline assembly output that is a bit-field */
/* A bit-field as an asm output. */
struct s { int a : 3, b : 5; };
int f(struct s *p) {
  __asm__("movl $1, %0" : "=r"(p->b));
  return p->a;
}
