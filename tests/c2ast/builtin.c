/* expect: 4:3: error: unsupported: builtin '__builtin_unwind_init' */
/* A compiler builtin with no library function behind it that c2ast does not write out. */
void unwind(void) {
  __builtin_unwind_init();
}
