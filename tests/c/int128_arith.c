/* __int128 and unsigned __int128 arithmetic (issue 19): + - * with carries
   across the halves, unary - and ~, & | ^, comparisons signed and unsigned
   at the limits, ++/--, compound assignment both ways (an int += an
   __int128), truth tests in if/while/&&/||/!/?:, constants wider than 64
   bits. Values are printed as two 64-bit halves. Narrowing an __int128 to a
   signed type wraps (the x86-64 ABI's choice, gcc's too). */
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

#define MAX128 ((i128)(~(u128)0 >> 1))
#define MIN128 (-MAX128 - 1)

static unsigned hash;

static void show(const char *name, u128 v) {
  unsigned long long hi = (unsigned long long)(v >> 64), lo = (unsigned long long)v;
  printf("%-6s %016llx %016llx\n", name, hi, lo);
  hash = hash * 31 + (unsigned)(hi ^ lo ^ (lo >> 32));
}

static i128 add(i128 a, i128 b) { return a + b; }
static u128 usub(u128 a, u128 b) { return a - b; }

int main(void) {
  u128 big = ((u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
  u128 all = ~(u128)0;
  i128 m1 = -1;
  show("big", big);
  show("all", all);
  show("max", (u128)MAX128);
  show("min", (u128)MIN128);
  show("carry", (u128)0xffffffffffffffffULL + 1);
  show("borrow", usub((u128)1 << 64, 1));
  show("wrap", all + 1);
  show("addneg", (u128)add(-5, 3));
  show("mul", big * 0x1000000001ULL);
  show("mulsq", (u128)0xffffffffffffffffULL * 0xffffffffffffffffULL);
  show("mulneg", (u128)((i128)-123456789012345LL * 987654321098LL));
  show("neg", (u128)-(i128)big);
  show("not", ~big);
  show("and", big & 0xff00ff00ff00ff00ULL);
  show("or", big | ((u128)1 << 127));
  show("xor", big ^ all);
  int cmp = 0;
  cmp = cmp * 2 + (MIN128 < MAX128);
  cmp = cmp * 2 + ((u128)MIN128 < (u128)MAX128);
  cmp = cmp * 2 + (m1 < 0);
  cmp = cmp * 2 + ((u128)m1 > big);
  cmp = cmp * 2 + (big >= big - 1);
  cmp = cmp * 2 + (big <= big - 1);
  cmp = cmp * 2 + (big == (all & big));
  cmp = cmp * 2 + (big != big + ((u128)1 << 64));
  cmp = cmp * 2 + ((i128)big > (i128)(big >> 1));
  cmp = cmp * 2 + (MIN128 + 1 > MIN128);
  printf("compares %x\n", cmp);
  i128 c = MAX128 - 2;
  c++;
  ++c;
  show("incmax", (u128)c);
  c = 0;
  c--;
  show("dec0", (u128)c);
  u128 u = (u128)1 << 64;
  printf("post %llu\n", (unsigned long long)(u-- >> 32));
  show("u", u);
  c = 7;
  c += big;
  c -= 3;
  c *= -2;
  c &= ~(i128)0xf;
  c |= 5;
  c ^= 0x30;
  c &= MAX128 >> 4;
  c <<= 3;
  c >>= 1;
  show("comp", (u128)c);
  int i = 40;
  i += big;
  unsigned char byte = 3;
  byte *= big;
  long l = -1;
  l -= (i128)1 << 70;
  printf("narrow %d %u %ld\n", i, byte, l);
  int truths = 0;
  u128 t = (u128)1 << 100;
  if (t) truths += 1;
  if (!(t >> 101)) truths += 2;
  if (t && !(t & 1)) truths += 4;
  if ((t & 1) || (t >> 100)) truths += 8;
  truths += (t ? 16 : 0);
  _Bool b = t;
  truths += b * 32;
  while (t) {
    t >>= 9;
    truths += 64;
  }
  printf("truths %d\n", truths);
  printf("hash %08x\n", hash);
  return (int)(hash % 256);
}
