/* va_b.c - variadic definitions for the interop test: sums over int, long
   and pointer arguments past the six argument registers, va_copy, a
   va_list handed to another function and to vprintf. va_a.c calls them and
   they call va_a.c's variadic function back. */
#include <stdarg.h>
#include <stdio.h>

long a_vmax(int n, ...);

long b_vsum_list(int n, va_list ap) {
  long s = 0;
  for (int i = 0; i < n; i++) s = s * 3 + va_arg(ap, long);
  return s;
}

long b_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = b_vsum_list(n, ap);
  va_end(ap);
  return s;
}

/* Walks its arguments twice: once through a copy, once through the original. */
long b_twice(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  long first = 0;
  for (int i = 0; i < n; i++) first += va_arg(again, int);
  va_end(again);
  long second = 0;
  for (int i = 0; i < n; i++) second = second * 7 + va_arg(ap, int);
  va_end(ap);
  return first * 1000 + second;
}

/* Mixed kinds: a format string says what comes (i int, l long, s string, p pointer to long). */
int b_printf(const char *kinds, ...) {
  va_list ap;
  va_start(ap, kinds);
  int written = 0;
  for (const char *k = kinds; *k; k++) {
    if (*k == 'i') written += printf("[i %d]", va_arg(ap, int));
    else if (*k == 'l') written += printf("[l %ld]", va_arg(ap, long));
    else if (*k == 's') written += printf("[s %s]", va_arg(ap, const char *));
    else if (*k == 'p') written += printf("[p %ld]", *va_arg(ap, long *));
  }
  va_end(ap);
  return written + printf("\n");
}

int b_vprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vprintf(fmt, ap);
  va_end(ap);
  return r;
}

long b_call_a_vmax(void) {
  return a_vmax(9, 3L, -8L, 44L, 12L, 5L, 99L, -100L, 98L, 7L) * 10 + a_vmax(1, -5L);
}
