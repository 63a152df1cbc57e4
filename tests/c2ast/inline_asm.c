/* expect: 5:3: error: unsupported: asm goto */
/* asm goto: not yet (asm statements with jump labels). */
int main(void) {
  int x = 1;
  asm goto("jmp %l0" : : : : out);
  x = 2;
out:
  return x;
}
