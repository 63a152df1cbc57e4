/* Floating point through variadic functions: va_arg(ap, double) reading
   doubles (and floats promoted to double) interleaved with ints, longs and
   pointers, a sum over a count, a mini printf of our own, va_copy, and
   vprintf/vsnprintf handed a va_list with doubles in it. */
#include <stdarg.h>
#include <stdio.h>

static double sum(int count, ...) {
  va_list ap;
  va_start(ap, count);
  double total = 0;
  for (int i = 0; i < count; i++) total += va_arg(ap, double);
  va_end(ap);
  return total;
}

static void show(const char *spec, ...) {
  va_list ap, again;
  va_start(ap, spec);
  va_copy(again, ap);
  for (const char *p = spec; *p; p++) {
    if (*p == 'd') printf("int %d; ", va_arg(ap, int));
    else if (*p == 'f') printf("double %.3f; ", va_arg(ap, double));
    else if (*p == 'l') printf("long %ld; ", va_arg(ap, long));
    else if (*p == 's') printf("str %s; ", va_arg(ap, const char *));
  }
  double first_double = 0;
  for (const char *p = spec; *p; p++) {
    if (*p == 'f') { first_double = va_arg(again, double); break; }
    if (*p == 'l') (void)va_arg(again, long);
    else if (*p == 's') (void)va_arg(again, const char *);
    else (void)va_arg(again, int);
  }
  va_end(again);
  va_end(ap);
  printf("| first double %g\n", first_double);
}

static int say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}

static int format(char *buf, int size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

int main(void) {
  float third = 1.0f / 3;
  printf("%.17g\n", sum(4, 0.5, 1.25, (double)third, -2.0));
  printf("%.17g\n", sum(10, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.5));
  show("dfsfld", 7, 3.25, "x", third, 123456789012L, -1);
  show("ffffffffff", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0);
  int n = say("%s %.2f %d %e %g\n", "vprintf", 2.5, 42, -1e-3, third);
  char buf[40];
  int m = format(buf, sizeof buf, "%08.3f|%d|%g", -3.14159, n, 0.1 + 0.2);
  printf("%s (%d)\n", buf, m);
  return n + m;
}
