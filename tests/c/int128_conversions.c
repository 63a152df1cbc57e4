/* __int128 conversions (issue 19): with every narrower integer type (sign
   and zero extension in, truncation out: narrowing to a signed type wraps,
   the x86-64 ABI's choice), _Bool, pointers (through unsigned long), and
   float and double both ways (libgcc's __floattidf, __fixdfti, ... as gcc
   calls them), at values near the limits of each; global and static
   __int128 initializers; an __int128 in a struct and an array. */
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

i128 global_neg = -((i128)1 << 100) - 12345;
u128 global_table[3] = {1, (u128)0xabcdef << 80, ~(u128)0 / 7};
struct tagged {
  char tag;
  i128 value;
  short after;
} global_struct = {'x', -(i128)999999999999999999LL * 1000000, 77};

static void show(const char *name, u128 v) {
  printf("%-8s %016llx %016llx\n", name, (unsigned long long)(v >> 64), (unsigned long long)v);
}

static i128 counter(void) {
  static i128 count = (i128)1 << 90;
  return count++;
}

int main(void) {
  signed char sc = -100;
  unsigned char uc = 200;
  short ss = -30000;
  unsigned short us = 60000;
  int si = -2000000000;
  unsigned ui = 4000000000u;
  long sl = -9000000000000000000L;
  unsigned long ul = 18000000000000000000UL;
  show("schar", (u128)(i128)sc);
  show("uchar", (u128)uc);
  show("short", (u128)(i128)ss);
  show("ushort", (u128)us);
  show("int", (u128)(i128)si);
  show("uint", (u128)ui);
  show("long", (u128)(i128)sl);
  show("ulong", (u128)ul);
  u128 w = ((u128)0x89abcdef01234567ULL << 64) | 0xfedcba9876543210ULL;
  printf("narrow %d %u %d %u %d %u %ld %lu\n", (signed char)w, (unsigned char)w, (short)w, (unsigned short)w,
         (int)w, (unsigned)w, (long)w, (unsigned long)w);
  _Bool b0 = (u128)1 << 64, b1 = (i128)0;
  printf("bools %d %d %d\n", b0, b1, (int)(i128)b0);
  int x = 5;
  int *p = &x;
  u128 addr = (unsigned long)p;
  int *back = (int *)(unsigned long)addr;
  printf("pointer round trip %d\n", *back);
  double doubles[] = {0.0, -0.0, 1.5, -1.5, 1e18, -9.2e18, 1.8e19, 1.6e38, -1.7e38, 123456789.987654321};
  for (int i = 0; i < 10; i++) {
    i128 s = (i128)doubles[i];
    u128 u = doubles[i] >= 0 ? (u128)doubles[i] : 0;
    show("d->i128", (u128)s);
    show("d->u128", u);
    printf("back %.17g %.17g\n", (double)s, (double)u);
  }
  float floats[] = {0.5f, -3.75f, 1e30f, -1e30f, 16777217.0f};
  for (int i = 0; i < 5; i++) {
    i128 s = (i128)floats[i];
    show("f->i128", (u128)s);
    printf("back %.9g %.9g\n", (float)s, (float)(u128)(s < 0 ? -s : s));
  }
  printf("round %.17g %.9g\n", (double)(((u128)1 << 120) + 1), (float)(-((i128)1 << 100) - 1));
  show("global", (u128)global_neg);
  for (int i = 0; i < 3; i++) show("table", global_table[i]);
  printf("struct %c %d\n", global_struct.tag, global_struct.after);
  show("member", (u128)global_struct.value);
  struct tagged local = {'y', global_struct.value / 3, 5};
  local.value += counter();
  local.value += counter();
  show("local", (u128)local.value);
  return (int)((u128)local.value % 251);
}
