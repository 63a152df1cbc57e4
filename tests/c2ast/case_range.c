/* expect: 5:3: error: unsupported: case range */
/* A GNU case range. */
int digit(int c) {
  switch (c) {
  case '0' ... '9': return 1;
  }
  return 0;
}
