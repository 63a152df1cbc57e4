/* expect: 6:6: error: unsupported: bit-field 'low' */
/* Bit-fields. */
struct flags { unsigned low : 3; unsigned high : 5; };
int set(struct flags *f) {
  int x = 1;
  f->low = x;
  return x;
}
