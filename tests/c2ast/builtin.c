/* expect: 4:10: error: unsupported: builtin '__builtin_popcount' */
/* A compiler builtin with no library function behind it. */
int bits(unsigned x) {
  return __builtin_popcount(x);
}
