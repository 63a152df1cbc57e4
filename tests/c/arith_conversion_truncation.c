/* Integer conversions: truncation, sign and zero extension between every pair of sizes.
   Narrowing to a signed type is modulo 2^N on gcc and on our toolchain (x86-64 ABI). */
#include <stdio.h>

int main(void) {
  long long big = 0x123456789ABCDEF0LL;
  int as_int = (int)big;
  short as_short = (short)big;
  signed char as_schar = (signed char)big;
  unsigned char as_uchar = (unsigned char)big;
  unsigned short as_ushort = (unsigned short)big;
  unsigned int as_uint = (unsigned int)big;

  printf("int %d short %d schar %d\n", as_int, as_short, as_schar);
  printf("uchar %u ushort %u uint %u\n", as_uchar, as_ushort, as_uint);
  /* Widening a negative signed value sign-extends. */
  signed char m = -2;
  long long wide = m;
  unsigned long long uwide = (unsigned long long)m;
  printf("wide %lld uwide %llx\n", wide, uwide);
  /* Widening an unsigned value zero-extends. */
  unsigned char u8 = 0xFE;
  long long wide2 = u8;
  int from_u8 = u8;
  printf("wide2 %lld from_u8 %d\n", wide2, from_u8);
  /* Signed to unsigned of the same width keeps the bits. */
  short sm = -1;
  unsigned short usm = (unsigned short)sm;
  unsigned int ufrom_short = (unsigned int)sm;
  printf("usm %u ufrom_short %u\n", usm, ufrom_short);
  /* Unsigned short through int to signed char. */
  unsigned short x = 0x1280;
  signed char y = (signed char)x;
  printf("y %d\n", y);
  /* Round trips. */
  int checks = 0;
  for (int v = -300; v <= 300; v += 37) {
    signed char c = (signed char)v;
    unsigned char uc = (unsigned char)v;
    short s = (short)(v * 200);
    checks += c + uc + s;
    printf("%d -> %d %u %d\n", v, c, uc, s);
  }
  /* Assignment converts implicitly too. */
  unsigned int ui = -1;
  unsigned char low = ui;
  int back = (int)ui;
  long from_uint = ui;
  printf("ui %u low %u back %d from_uint %ld\n", ui, low, back, from_uint);
  /* Conversion of the result of an expression. */
  unsigned short prod = (unsigned short)(300 * 300);
  printf("prod %u\n", prod);
  printf("checks %d\n", checks);
  return (unsigned char)checks;
}
