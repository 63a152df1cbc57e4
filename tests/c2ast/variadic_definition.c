/* expect: 4:5: error: unsupported: variadic function definition 'sum' */
/* Defining a variadic function (va_start and friends). */
#include <stdarg.h>
int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = va_arg(ap, int);
  va_end(ap);
  return s + n;
}
