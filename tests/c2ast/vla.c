/* expect: 4:7: error: unsupported: variable length array aligned to more than 16 bytes */
/* A variable length array asking for more alignment than the stack's 16 bytes. */
int last(int n) {
  int a[n] __attribute__((aligned(32)));
  a[n - 1] = 3;
  return a[n - 1];
}
