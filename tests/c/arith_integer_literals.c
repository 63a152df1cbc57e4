/* Integer literal types: decimal, octal, hex, suffixes, and the type each one gets. */
#include <stdio.h>

int main(void) {
  /* Hex literals that do not fit int become unsigned int. */
  printf("0x7FFFFFFF > 0: %d, 0xFFFFFFFF > 0: %d\n", 0x7FFFFFFF > 0, 0xFFFFFFFF > 0);
  printf("sizeof 0xFFFFFFFF = %d, sizeof 4294967295 = %d\n", (int)sizeof(0xFFFFFFFF),
         (int)sizeof(4294967295));
  /* A decimal literal that does not fit int is long. */
  printf("sizeof 2147483648 = %d, sizeof 2147483647 = %d\n", (int)sizeof(2147483648),
         (int)sizeof(2147483647));
  /* Octal literals. */
  printf("010 = %d, 0777 = %d, 0 = %d\n", 010, 0777, 0);
  /* Suffixes. */
  printf("sizeof 1u=%d 1l=%d 1ul=%d 1ll=%d 1ull=%d\n", (int)sizeof(1u), (int)sizeof(1l),
         (int)sizeof(1ul), (int)sizeof(1ll), (int)sizeof(1ull));
  /* -1 compared with literal types. */
  printf("-1 < 0x80000000: %d\n", -1 < 0x80000000);
  printf("-1 < 2147483648: %d\n", -1 < 2147483648);
  printf("-1L < 0xFFFFFFFFFFFFFFFF: %d\n", -1L < 0xFFFFFFFFFFFFFFFF);
  /* Character constants are ints. */
  printf("'A'=%d '\\n'=%d '\\0'=%d '\\x7f'=%d '\\377'=%d\n", 'A', '\n', '\0', '\x7f', '\377');
  /* Large values. */
  long long big = 9223372036854775807LL;
  unsigned long long ubig = 18446744073709551615ULL;
  printf("big=%lld ubig=%llu\n", big, ubig);
  printf("big hex=%llx ubig oct=%llo\n", big, ubig);
  long long minll = -9223372036854775807LL - 1;
  printf("minll=%lld\n", minll);
  int minint = -2147483647 - 1;
  printf("minint=%d\n", minint);
  /* Unary minus applied to an unsigned literal. */
  unsigned int mu = -1u;
  printf("-1u=%u\n", mu);
  /* Constant expressions folded from literals. */
  enum { K = (1 << 10) + 0x10 - 010 };
  int arr[K / 100];
  printf("K=%d sizeof arr=%d\n", K, (int)sizeof arr);
  long mixed = 0x10L * 010 + 10;
  printf("mixed=%ld\n", mixed);
  return K % 256;
}
