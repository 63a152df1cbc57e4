/* expect: 5:13: error: invalid application of 'typeof' to bit-field */
/* gcc's typeof of a bit-field is an error too (clang's diagnostic). */
struct flags { unsigned low : 3; unsigned high : 5; };
int copy(struct flags *f) {
  __typeof__(f->high) x = f->high;
  return (int)x;
}
