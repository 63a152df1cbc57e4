/* ia.c - the caller side of the __int128 interop test (ishapes.h): main
   calls every function of ib.c and prints what comes back; ib.c calls
   a_back and a_vsum here back. */
#include <stdarg.h>
#include <stdio.h>
#include "ishapes.h"

i128 a_back(i128 a, long b, i128 c) { return a * b + c + 1; }
i128 a_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  i128 t = 0;
  for (int i = 0; i < n; i++) {
    if (va_arg(ap, int)) t = t * 5 + va_arg(ap, i128);
    else t = t * 5 + va_arg(ap, long);
  }
  va_end(ap);
  return t;
}

static void show(const char *name, i128 v) {
  printf("%-8s %016llx %016llx\n", name, (unsigned long long)((u128)v >> 64), (unsigned long long)v);
}

int main(void) {
  i128 big = b_make(0x0123456789abcdefL, 0xfedcba9876543210UL);
  show("make", big);
  show("mul", (i128)b_mul(0xffffffffffffffffUL, 0xfffffffffffffffeUL));
  show("regs", b_regs(big, -big, big >> 3));
  show("five", b_five(1, 2, 3, 4, 5, big, 6, -(i128)99));
  show("six", (i128)b_six(1, 2, 3, 4, 5, 6, (u128)big, 2.5e9, ~(u128)0));
  struct wrap w = b_wrap((struct wrap){(u128)big}, -7);
  show("wrap", (i128)w.v);
  struct mixed m = b_mixed((struct mixed){41, big});
  printf("mixed %ld\n", m.tag);
  show("mixed", m.v);
  show("vsum", b_vsum(5, 1, big, 0, -3L, 1, (i128)-1, 1, big << 9, 0, 77L));
  show("vsum2", b_vsum(7, 0, 1L, 0, 2L, 1, big, 0, 3L, 1, -big, 1, (i128)5, 0, 6L));
  /* one register left for an __int128: it goes to the stack, the int after it takes r9 */
  show("vsum3", b_vsum(3, 1, big, 1, big >> 5, 0, 42L));
  show("callback", b_callback(a_back, big));
  return 0;
}
