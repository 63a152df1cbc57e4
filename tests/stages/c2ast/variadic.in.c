#include <stdarg.h>
#include <stdio.h>

/* va_start, va_arg, va_copy (a 24-byte copy), va_end (nothing), and a
   va_list passed on to vprintf. */
long sum(int n, ...) {
  va_list ap, again;
  long total = 0;
  va_start(ap, n);
  va_copy(again, ap);
  for (int i = 0; i < n; i++) total += va_arg(ap, long);
  va_end(ap);
  vprintf("%ld\n", again);
  va_end(again);
  return total;
}
