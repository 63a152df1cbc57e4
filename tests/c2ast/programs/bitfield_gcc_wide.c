/* gcc's arithmetic on bit-fields wider than int: an `unsigned long long b
   : 40` has a 40-bit type, so `x.b << 32` drops the bits above 40 and
   sums wrap at 2^40, unless an operand is a real 64-bit value (clang
   computes in 64 bits; gcc is the reference here, as in c-torture's
   pr32244-1 and pr34971). Signed fields wrap to their width too. */
#include <stdio.h>

struct wide { unsigned long long b : 40; long long s : 36; unsigned long long n : 20; } x;

int main(void) {
  unsigned long long full = 1;
  x.b = 0x0100;
  x.s = -5;
  x.n = 0xfffff;
  printf("%llx\n", x.b << 32);
  printf("%llx\n", (x.b << 8) + (x.b >> 32));
  x.b = 0xffffffffffULL;
  printf("%llx %llx %llx\n", x.b + 1, x.b * 2, x.b + full);
  printf("%llx %llx\n", -x.b, ~x.b);
  printf("%llx\n", (unsigned long long)x.b << 4);
  printf("%lld %lld\n", x.s << 33, x.s * 2);
  printf("%x %d\n", x.n << 4, x.b + 1 == 0);
  unsigned long long y = x.b + 1;
  printf("%llx\n", y);
  return (int)(x.b + 2);
}
