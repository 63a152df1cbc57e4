/* expect: 5:10: error: address of bit-field requested */
/* A bit-field has no address. */
struct flags { unsigned low : 3; unsigned high : 5; };
unsigned *where(struct flags *f) {
  return &f->high;
}
