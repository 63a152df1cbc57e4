/* A variadic logger that forwards its va_list to vprintf, vfprintf,
   vsnprintf and vsprintf, the way real C code wraps printf. */
#include <stdarg.h>
#include <stdio.h>

static int lines;

static void log_line(const char *level, const char *fmt, ...) {
  va_list ap;
  printf("[%s %d] ", level, ++lines);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

static int log_to(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(f, fmt, ap);
  va_end(ap);
  return n;
}

/* Formats into a bounded buffer, then again into a big one through a copy. */
static int format_both(char *small, unsigned long size, char *big, const char *fmt, ...) {
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  int wanted = vsnprintf(small, size, fmt, ap);
  int written = vsprintf(big, fmt, copy);
  va_end(copy);
  va_end(ap);
  return wanted == written ? wanted : -1;
}

int main(void) {
  char small[8], big[128];
  log_line("info", "starting %s with %d workers", "pipe", 4);
  log_line("warn", "%d%% done, %ld bytes, %x flags, %c", 75, 1L << 35, 0xbeefu, '!');
  log_line("debug", "six %d %d %d %d %d %d and more %s %s", 1, 2, 3, 4, 5, 6, "seven", "eight");
  log_line("plain", "no arguments");
  printf("%d\n", log_to(stdout, "to stdout: %05d|%-4s|\n", 42, "ab"));
  int n = format_both(small, sizeof small, big, "%s-%d-%s", "alpha", 12345, "omega");
  printf("%d [%s] [%s]\n", n, small, big);
  return 0;
}
