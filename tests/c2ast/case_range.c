/* expect: 5:3: error: unsupported: case range of more than 65536 values */
/* A GNU case range is one case per value, up to a limit. */
int big(int c) {
  switch (c) {
  case 0 ... 100000: return 1;
  }
  return 0;
}
