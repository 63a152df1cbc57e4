/* expect: 4:7: error: unsupported: variable length array type 'int[n]' */
/* A variable length array. */
int last(int n) {
  int a[n];
  a[n - 1] = 3;
  return a[n - 1];
}
