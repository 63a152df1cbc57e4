/* expect: 5:34: error: unsupported: inline assembly constraint alternatives (',') */
/* Constraint alternatives (gcc's multi-alternative constraints): refused. */
int f(int x) {
  int r;
  __asm__("movl %1, %0" : "=r,m"(r) : "r,r"(x));
  return r;
}
