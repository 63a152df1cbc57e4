/* Function hints: noinline, always_inline, pure, const, cold, malloc,
   noreturn; and attributes that change nothing (unused, deprecated,
   format, nonnull, warn_unused_result, may_alias, fallthrough, hot,
   noclone, no_reorder). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int twice(int x) { return 2 * x; }
static inline __attribute__((always_inline)) int thrice(int x) { return 3 * x; }
__attribute__((pure)) int length(const char *s) { return (int)strlen(s); }
__attribute__((const)) int square(int x) { return x * x; }
__attribute__((cold)) void rarely(int x) { printf("rarely %d\n", x); }
__attribute__((malloc)) void *make(size_t n) { return calloc(n, 1); }
__attribute__((noreturn)) void finish(int code) { printf("finish %d\n", code); exit(code); }
__attribute__((unused, deprecated)) static int old(void) { return 0; }
__attribute__((format(printf, 1, 2), nonnull(1))) int say(const char *fmt, ...);
__attribute__((warn_unused_result, hot, noclone, no_reorder)) int result(int x) { return x + 1; }
typedef int __attribute__((may_alias)) alias_int;

int say(const char *fmt, ...) { return printf("%s", fmt); }

int main(void) {
  int total = 0;
  for (int i = 0; i < 10; ++i) total += twice(i) + thrice(i) + square(i % 4);
  int *p = make(4 * sizeof(int));
  p[2] = length("four");
  alias_int *q = (alias_int *)&p[2];
  switch (*q) {
    case 4: total += 1; __attribute__((fallthrough));
    case 5: total += 2; break;
  }
  rarely(total);
  say("hello\n");
  total += result(1);
  free(p);
  finish(total % 100);
}
