/* printf conversions the corpus relies on: d i u x X o c s %, flags, width, precision, length modifiers. */
#include <stdio.h>

int main(void) {
  int n = 42, m = -42;
  printf("[%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%+d]\n", n, m, n, n, n, n, n, m);
  printf("[%.3d] [%8.3d] [%-8.3d] [%.0d]\n", n, m, n, 0);
  printf("[%u] [%x] [%X] [%o] [%#x] [%#o] [%#X]\n", 3000000000u, 255u, 255u, 8u, 255u, 8u, 0xABCu);
  printf("[%08x] [%-8x] [%8X]\n", 0xBEEFu, 0xBEEFu, 0xBEEFu);
  printf("[%c] [%3c] [%-3c]\n", 'a', 'b', 'c');
  printf("[%s] [%10s] [%-10s] [%.3s] [%10.2s]\n", "text", "right", "left", "truncate", "ab");
  printf("[%%] [100%%]\n");
  /* Length modifiers. */
  long l = -1234567890123L;
  unsigned long ul = 18446744073709551615ul;
  long long ll = -9223372036854775807LL - 1;
  unsigned long long ull = 12345678901234567890ull;
  printf("[%ld] [%lu] [%lx]\n", l, ul, ul);
  printf("[%lld] [%llu] [%llX] [%llo]\n", ll, ull, ull, ull);
  signed char sc = -5;
  unsigned char uc = 250;
  short sh = -12345;
  unsigned short ush = 65535;
  printf("[%hhd] [%hhu] [%hd] [%hu] [%hhx] [%hx]\n", sc, uc, sh, ush, uc, ush);
  size_t sz = sizeof(long long[3]);
  printf("[%zu] [%zd]\n", sz, (long)sz);
  /* Star width and precision from arguments. */
  printf("[%*d] [%-*d] [%.*s] [%*.*d]\n", 6, n, 6, n, 2, "stars", 7, 4, m);
  /* Extremes. */
  printf("[%d] [%d] [%u] [%x]\n", 2147483647, -2147483647 - 1, 0u, 0u);
  printf("[%lld] [%llx]\n", 9223372036854775807LL, 0ull);
  /* Many arguments (several passed on the stack). */
  printf("%d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  printf("%s=%d %s=%ld %s=%c %s=%u\n", "a", 1, "b", 2L, "c", 'C', "d", 4u);
  putchar('p');
  putchar('\n');
  puts("puts adds a newline");
  return 3;
}
