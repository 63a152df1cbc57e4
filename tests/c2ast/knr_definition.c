/* expect: 3:5: error: unsupported: K&R-style function definition 'twice' */
/* An old-style (K&R) definition with parameters. */
int twice(x) int x; {
  return 2 * x;
}
