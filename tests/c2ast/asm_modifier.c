/* expect: 4:3: error: unsupported: inline assembly operand modifier 'z' */
/* An operand modifier outside b w k q h c n P a: refused by name. */
int f(int x) {
  __asm__("add%z0 $1, %0" : "+r"(x));
  return x;
}
