/* expect: 5:20: error: invalid application of 'sizeof' to bit-field */
/* Bit-fields are supported; C forbids sizeof of one, and clang says so. */
struct flags { unsigned low : 3; unsigned high : 5; };
unsigned long size(struct flags *f) {
  return sizeof f->low;
}
