/* Bit-field reads and writes: a 1-bit signed field holds -1 and 0, values
   wrap to the field's width on assignment (converting to a narrower signed
   field wraps: gcc's implementation-defined choice, shared by the
   toolchain), the value of an assignment, compound assignment and ++/--
   is the truncated stored value, a field straddling a 32-bit boundary in a
   long long unit, signed fields sign-extend, fields in conditions and as
   switch operands, and a write leaves the neighbouring fields and bytes
   as they were (read back, and the raw bytes through a union). */
#include <stdio.h>
#include <string.h>

struct flags { int one : 1; unsigned two : 2; int five : 5; unsigned char c : 3; };
struct big { unsigned long long low : 30, cross : 20, high : 14; };
union raw { struct big b; unsigned char bytes[8]; };

static volatile int seed = 300;
static unsigned long total = 0;

static void show(const char *what, long long v) {
  printf("%-12s %lld\n", what, v);
  total = total * 33 + (unsigned long long)v;
}

static void bytes(const union raw *r) {
  for (int i = 0; i < 8; i++) printf("%02x", r->bytes[i]);
  printf("\n");
}

static int classify(struct flags f) {
  switch (f.five) {
    case -16: return 1;
    case -1: return 2;
    case 15: return 3;
    default: return f.two ? 4 : 5;
  }
}

int main(void) {
  struct flags f;
  memset(&f, 0, sizeof f);
  int big = seed;
  f.one = -1;
  show("one=-1", f.one);
  f.one = 0;
  show("one=0", f.one);
  f.one = big;       /* 300 is even: 0 */
  show("one=300", f.one);
  show("two=big+1", f.two = big + 1); /* 301 mod 4 */
  show("five=big", f.five = big);     /* 300 wraps to 12 */
  show("five+=20", f.five += 20);     /* 32 wraps to 0 */
  f.five = 15;
  show("++five", ++f.five);           /* 16 wraps to -16 */
  show("five--", f.five--);           /* -16, then 15 */
  show("five", f.five);
  f.two = 3;
  show("two++", f.two++);
  show("two", f.two);
  f.c = 5;
  show("c*=big", f.c *= big);         /* 1500 mod 8 */
  show("c-=7", f.c -= 7);
  show("sum", f.one + f.two + f.five + f.c);
  show("classify", classify(f));
  f.five = -1;
  show("classify", classify(f));
  if (f.five < 0 && !f.one) show("cond", 1);
  show("ternary", f.two ? f.five : f.c);

  union raw r;
  memset(&r, 0xa5, sizeof r);
  r.b.cross = 0xfffff;
  bytes(&r);
  show("low", (long long)r.b.low);
  show("high", (long long)r.b.high);
  r.b.cross = 0;
  bytes(&r);
  r.b.cross += (unsigned)big * 4000u;
  bytes(&r);
  show("cross", (long long)r.b.cross);
  r.b.low = 0;
  r.b.high = 0x3fff;
  bytes(&r);
  show("cross", (long long)r.b.cross);
  unsigned long long x = r.b.cross << 12;
  show("shifted", (long long)x);
  printf("total %lu\n", total);
  return (int)(total % 199);
}
