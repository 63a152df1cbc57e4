/* Variadic function definitions: va_start, va_arg of int, long, unsigned
   and pointers, va_end, va_copy (a second walk over the same arguments), a
   va_list handed to a helper, and more arguments than the six argument
   registers hold, so the System V register save area and the overflow area
   are both read. */
#include <stdarg.h>
#include <stdio.h>

static int sum_ints(int count, ...) {
  va_list ap;
  int total = 0;
  va_start(ap, count);
  for (int i = 0; i < count; i++) total += va_arg(ap, int);
  va_end(ap);
  return total;
}

static long sum_list(int count, va_list ap) {
  long total = 0;
  for (int i = 0; i < count; i++) total += va_arg(ap, long);
  return total;
}

static long sum_longs(int count, ...) {
  va_list ap;
  va_start(ap, count);
  long total = sum_list(count, ap);
  va_end(ap);
  return total;
}

/* Walks the arguments twice: once through a copy, once through the original. */
static long twice(const char *tag, int count, ...) {
  va_list ap, again;
  va_start(ap, count);
  va_copy(again, ap);
  long first = 0, second = 0;
  for (int i = 0; i < count; i++) first += va_arg(again, int) * (i + 1);
  va_end(again);
  for (int i = 0; i < count; i++) second -= va_arg(ap, int);
  va_end(ap);
  printf("%s: %ld %ld\n", tag, first, second);
  return first + second;
}

/* Strings until a null pointer. */
static unsigned total_length(const char *first, ...) {
  va_list ap;
  unsigned n = 0;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *))
    while (*s++) n++;
  va_end(ap);
  return n;
}

/* Mixed types, with the width chosen by a format letter. */
static unsigned long mixed(const char *kinds, ...) {
  va_list ap;
  unsigned long acc = 0;
  va_start(ap, kinds);
  for (; *kinds; kinds++) {
    switch (*kinds) {
      case 'i': acc = acc * 31 + (unsigned long)(long)va_arg(ap, int); break;
      case 'u': acc = acc * 31 + va_arg(ap, unsigned); break;
      case 'l': acc = acc * 31 + (unsigned long)va_arg(ap, long); break;
      case 'c': acc = acc * 31 + (unsigned long)(char)va_arg(ap, int); break;
      case 'p': acc = acc * 31 + (unsigned long)*va_arg(ap, int *); break;
    }
  }
  va_end(ap);
  return acc;
}

int main(void) {
  int seven = 7;
  printf("%d\n", sum_ints(0));
  printf("%d\n", sum_ints(3, 1, 2, 3));
  printf("%d\n", sum_ints(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
  printf("%ld\n", sum_longs(4, 1L << 40, -5L, 3000000000L, 12L));
  printf("%ld\n", sum_longs(8, 1L, 2L, 3L, 4L, 5L, 6L, 7L, -(1L << 50)));
  printf("%ld\n", twice("small", 2, 10, 20));
  printf("%ld\n", twice("large", 9, 1, -2, 3, -4, 5, -6, 7, -8, 9));
  printf("%u\n", total_length("ab", "cde", "", "fghij", (char *)0));
  printf("%lu\n", mixed("iulcp", -3, 4000000000u, -(1L << 33), 'z', &seven));
  printf("%lu\n", mixed("ppppppppi", &seven, &seven, &seven, &seven, &seven, &seven, &seven, &seven, -1));
  return sum_ints(2, 40, 2);
}
