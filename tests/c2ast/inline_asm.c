/* expect: 7:3: error: unsupported: asm goto template names a label without the 'l' modifier */
/* asm goto (inline_asm.cpp): a label operand is written %l0 or %l[name];
   gcc prints a bare %0 of a label as an immediate, which no jump takes, and
   c2ast refuses it by name. */
int main(void) {
  int x = 1;
  asm goto("jmp %0" : : : : out);
  x = 2;
out:
  return x;
}
