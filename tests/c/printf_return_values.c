/* Return values of printf, sprintf, snprintf, putchar and puts, edge-case conversions, and
   output that contains a NUL byte. */
#include <stdio.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

int main(void) {
  int total = 0;
  int n = printf("hello %s %d\n", "world", 42);
  total += n;
  printf("printf returned %d\n", n);
  n = printf("%c", '\0');  /* writes one NUL byte */
  printf("|NUL returned %d\n", n);
  int c = putchar('A');
  int c2 = putchar(0x1C2);  /* putchar writes (unsigned char)0xC2 and returns it */
  putchar('\n');
  printf("putchar returned %d %d\n", c, c2);
  n = puts("puts line");
  printf("puts returned non-negative: %d\n", n >= 0);
  char buf[64];
  n = sprintf(buf, "%lld|%lld", LLONG_MIN, LLONG_MAX);
  printf("%s (%d)\n", buf, n);
  n = snprintf(buf, 5, "%d", 123456789);
  printf("%s (%d)\n", buf, n);
  /* Edge cases of flags and precision. */
  printf("[%#o] [%#x] [%.0d] [%+.0d] [%5.0d]\n", 0u, 0u, 0, 0, 0);
  printf("[%-+6d] [%+-6d] [% 06d] [%+06d]\n", 42, 42, 42, -42);
  printf("[%.10d] [%-12.8x] [%#.6o]\n", -123, 0xabcu, 8u);
  printf("[%hhx] [%hhd] [%hu] [%hd]\n", (unsigned char)200, (signed char)-56, (unsigned short)65535, (short)-32768);
  printf("[%.0s] [%.2s] [%-4s] [%4s]\n", "gone", "cut", "l", "r");
  printf("[%d%%] [%%d] [%5c] [%-5c]\n", 50, 'x', 'y');
  printf("[%lu] [%lx] [%lo]\n", ULONG_MAX, ULONG_MAX, ULONG_MAX);
  printf("[%x] [%X] [%u] [%d]\n", UINT_MAX, UINT_MAX, UINT_MAX, INT_MIN);
  printf("[%zu] [%zx] [%td] [%jd]\n", (size_t)123456, (size_t)255, (ptrdiff_t)-7, (intmax_t)-8);
  n = printf("%s", "");
  printf("empty printf returned %d\n", n);
  total += n + c + c2;
  return total % 256;
}
