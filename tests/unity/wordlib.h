/* A single-header library: declarations always, definitions where the
   includer defines WORDLIB_IMPLEMENTATION. */
#ifndef WORDLIB_H
#define WORDLIB_H
int wordlib_count(const char *s);
extern int wordlib_calls;
#endif
#ifdef WORDLIB_IMPLEMENTATION
int wordlib_calls;
int wordlib_count(const char *s) {
  int n = 0, in = 0;
  wordlib_calls++;
  for (; *s; s++) {
    if (*s == ' ') in = 0;
    else if (!in) { in = 1; n++; }
  }
  return n;
}
#endif
