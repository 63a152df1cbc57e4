/* expect: 4:10: error: unsupported: builtin '__builtin_frame_address' */
/* A compiler builtin with no library function behind it that c2ast does not write out. */
void *frame(void) {
  return __builtin_frame_address(0);
}
