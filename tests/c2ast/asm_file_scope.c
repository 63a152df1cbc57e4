/* expect: 3:1: error: unsupported: file-scope inline assembly */
/* File-scope basic asm: refused by name (not yet carried in the module). */
__asm__(".globl marker\nmarker: ret");
int main(void) { return 0; }
