/* expect: 4:10: error: unsupported: builtin '__builtin_classify_type' */
/* A compiler builtin with no library function behind it that c2ast does not write out. */
int kind(void) {
  return __builtin_classify_type(1.0);
}
