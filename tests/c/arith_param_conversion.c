/* Conversions at function boundaries: arguments converted to the parameter types of the
   prototype, return values converted to the return type, and _Bool/char/short parameters. */
#include <stdio.h>

static int take_schar(signed char c) { return c; }
static unsigned take_uchar(unsigned char c) { return c; }
static int take_short(short s) { return s; }
static unsigned long take_ulong(unsigned long u) { return u; }
static long long take_llong(long long v) { return v; }
static int take_bool(_Bool b) { return b; }

static unsigned char ret_uchar(int v) { return v; }
static signed char ret_schar(int v) { return v; }
static short ret_short(long v) { return v; }
static unsigned ret_unsigned(long long v) { return v; }
static _Bool ret_bool(long v) { return v; }
static long ret_long(int v) { return v; }

int main(void) {
  int big = 0x12345;
  int neg = -3;
  printf("schar %d uchar %u short %d\n", take_schar(big), take_uchar(big), take_short(big));
  printf("schar(-3) %d uchar(-3) %u short(big*7) %d\n", take_schar(neg), take_uchar(neg),
         take_short(big * 7));
  printf("ulong(-1) %lu llong(uint max) %lld\n", take_ulong(neg), take_llong(4294967295u));
  printf("bool(256) %d bool(-1) %d bool(0) %d\n", take_bool(256), take_bool(-1), take_bool(0));
  printf("ret_uchar(300) %u ret_schar(200) %d ret_short(100000) %d\n", ret_uchar(300),
         ret_schar(200), ret_short(100000));
  printf("ret_unsigned(-1) %u ret_unsigned(2^32+5) %u\n", ret_unsigned(-1),
         ret_unsigned(4294967301LL));
  printf("ret_bool(1<<40) %d ret_long(-7) %ld\n", ret_bool(1L << 40), ret_long(-7));
  /* Accumulate through narrow parameters. */
  int acc = 0;
  for (int i = 0; i < 600; i += 37) acc += take_schar(i) + (int)take_uchar(i) + ret_schar(i * 3);
  printf("acc %d\n", acc);
  /* A char parameter compared to a char constant. */
  int matches = 0;
  for (int i = -300; i < 300; i++) matches += take_schar(i) == 'A';
  printf("matches %d\n", matches);
  return (acc + matches) & 0xFF;
}
