/* expect: 4:3: error: unsupported: inline assembly */
/* Inline assembly. */
int main(void) {
  __asm__ volatile("nop");
  return 0;
}
