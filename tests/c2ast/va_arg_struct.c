/* expect: 7:19: error: unsupported: va_arg of the struct or union type 'struct pair' */
/* va_arg of a struct (System V classifies it; only integers and pointers are read). */
#include <stdarg.h>
struct pair { long a, b; };
long first(int n, ...) {
  va_list ap; va_start(ap, n);
  struct pair p = va_arg(ap, struct pair);
  va_end(ap);
  return p.a;
}
