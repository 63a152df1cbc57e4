/* expect: 4:16: error: unsupported: complex type '_Complex int' */
/* _Complex. */
int main(void) {
  _Complex int z = 0;
  return 0;
}
