/* gcc's scalar_storage_order (stages/c2ast/storage_order.cpp): structs and
   unions whose scalars are stored big-endian, by the attribute and by the
   pragma, byte for byte as gcc stores them: members of every width, enums,
   float and double, arrays (1-D and 2-D) of them, pointers (native, as in
   gcc), nested structs of the other order, a union, bit-fields (gcc's
   big-endian bit numbering), static and local initializers, compound
   assignment, ++, the value of an assignment, copies and calls by value.
   Not a tests/c corpus program: clang 14 ignores the attribute. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#define BE __attribute__((scalar_storage_order("big-endian")))
#define LE __attribute__((scalar_storage_order("little-endian")))

enum color { RED = 0x102, BLUE = -3 };
struct LE native { short s; int i; };
struct BE big {
  short s; unsigned short us; int i; unsigned u; long long ll; enum color c; char ch; signed char sc; _Bool b;
  float f; double d; short row[3]; int grid[2][2]; struct native inner; const char *name;
};
struct outer { int i; struct big b; };  /* native, holding a big-endian member */
union BE mix { unsigned u; unsigned char bytes[4]; float f; };
struct BE bits { unsigned a : 3, b : 9, c : 20; int d : 7; unsigned long long e : 37, f : 27; };

#pragma scalar_storage_order big-endian
struct pragma_big { int i; struct { short s; } nested; };
#pragma scalar_storage_order little-endian
struct pragma_little { int i; };
#pragma scalar_storage_order default
struct after { int i; };

static void dump(const char *what, const void *p, size_t n) {
  unsigned char c[128];
  memcpy(c, p, n);
  printf("%s:", what);
  for (size_t i = 0; i < n; i++) printf(" %02x", c[i]);
  printf("\n");
}

static struct big global = {0x1234, 0xfedc, -2, 0x89abcdef, 0x0102030405060708LL, BLUE, 'z', -5, 1,
                            1.5f, -2.25, {1, -1, 0x7fff}, {{1, 2}, {3, 0x10000}}, {0x0a0b, 0x0c0d0e0f}, 0};
static struct bits global_bits = {5, 0x1ff, 0xabcde, -9, 0x1234567890ULL, 0x7654321};


int main(void) {
  dump("global", &global, offsetof(struct big, name));
  struct big x;
  memset(&x, 0, sizeof x);
  x.s = -300; x.us = 40000; x.i = 0x11223344; x.u = 7; x.ll = -1234567890123LL; x.c = RED; x.ch = 'a';
  x.sc = -128; x.b = 1; x.f = -0.5f; x.d = 1e300; x.row[1] = 0x2345; x.grid[1][0] = -70000;
  x.inner.s = 0x3456; x.inner.i = 99; x.name = "x";
  dump("x", &x, offsetof(struct big, name));
  printf("%d %u %d %u %lld %d %c %d %d %g %g %d %d %d %d %s\n", x.s, x.us, x.i, x.u, x.ll, x.c, x.ch, x.sc, x.b,
         x.f, x.d, x.row[1], x.grid[1][0], x.inner.s, x.inner.i, x.name);
  x.i += 0x100; x.us++; --x.s; x.ll *= 3; x.f += 2.0f; x.d /= 4; x.row[1] <<= 2; x.grid[1][0] ^= 0x55;
  int assigned = (x.u = 0x01020304) + 1;
  printf("%d %u %d %lld %g %g %d %d %d %u\n", x.i, x.us, x.s, x.ll, x.f, x.d, x.row[1], x.grid[1][0], assigned, x.u);
  dump("after", &x, offsetof(struct big, name));
  struct outer o;
  memset(&o, 0, sizeof o);
  o.i = 0x01020304; o.b = x; o.b.inner.i = 0x05060708;
  dump("outer", &o, 4 + offsetof(struct big, name) + 4);
  union mix m;
  m.u = 0xcafef00d;
  dump("union", &m, 4);
  m.f = 1.0f;
  printf("union %02x%02x %u\n", m.bytes[0], m.bytes[1], m.u);
  dump("bits", &global_bits, sizeof global_bits);
  printf("%u %u %u %d %llx %llx\n", global_bits.a, global_bits.b, global_bits.c, global_bits.d,
         (unsigned long long)global_bits.e, (unsigned long long)global_bits.f);
  struct bits lb;
  memset(&lb, 0, sizeof lb);
  lb.a = 6; lb.b = 0x101; lb.c = 0x54321; lb.d = 63; lb.e = 0x1fffffffffULL; lb.f = 12345;
  dump("lbits", &lb, sizeof lb);
  lb.d -= 100; lb.c += 0xfffff; lb.a++;
  printf("%u %u %d %llu\n", lb.a, lb.c, lb.d, (unsigned long long)(lb.e + lb.f));
  dump("lbits2", &lb, sizeof lb);
  struct bits li = {1, 2, 3, -4, 5, 6};
  dump("li", &li, 5);  /* (its padding is unspecified) */
  dump("li.e", (const char *)&li + 8, 8);
  struct pragma_big pb = {0x01020304, {0x0506}};
  struct pragma_little pl = {0x01020304};
  struct after af = {0x01020304};
  dump("pragma", &pb, 6);
  dump("little", &pl, 4);
  dump("default", &af, 4);
  return (int)(x.i + lb.d) & 0x7f;
}
