/* expect: 4:3: error: unsupported: builtin '__builtin_longjmp' */
/* A compiler builtin with no library function behind it that c2ast does not write out. */
void jump(void **buf) {
  __builtin_longjmp(buf, 1);
}
