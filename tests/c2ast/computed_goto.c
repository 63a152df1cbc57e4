/* expect: 4:13: error: unsupported: address of a label (computed goto) */
/* A computed goto: the address of a label. */
int main(void) {
  void *p = &&out;
  goto *p;
out:
  return 0;
}
