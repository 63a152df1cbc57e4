/* Bit-field layout against gcc's System V layout: for each struct, its size
   and alignment, the offset of a plain member after bit-fields, and for
   each field the bytes of the object when only that field is all ones
   (the bits it owns). Covers allocation units, a field straddling a 32-bit
   boundary inside a long long unit, fields that would straddle their
   type's unit and move to the next, zero-width and unnamed fields, char,
   short, _Bool, enum and long long fields, a union, and packed records
   (__attribute__((packed)) and #pragma pack). Little-endian bytes: an
   x86-64 ABI choice gcc and the toolchain share. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum colour { RED, GREEN, BLUE };
struct units { unsigned a : 3, b : 5, c : 30; char tail; };
struct wide { unsigned long long lo : 28, mid : 12, hi : 24; int after; };
struct mixed { char c; short s : 9; _Bool flag : 1; enum colour e : 2; unsigned char u : 7; };
struct zero { char x : 4; int : 0; char y : 4; unsigned : 3; long long z : 5; };
union overlay { unsigned a : 3; int b : 17; unsigned char bytes[4]; };
struct __attribute__((packed)) packed { char x; unsigned long long y : 60; unsigned z : 9; };
#pragma pack(push, 1)
struct pragma { unsigned a : 20; unsigned b : 20; char c; long long d : 63; };
#pragma pack(pop)
#pragma pack(push, 2)
struct pragma2 { char c; int i : 17; int j : 17; };
#pragma pack(pop)

static unsigned long checksum = 0;

static void dump(const char *name, const void *p, size_t n) {
  const unsigned char *b = p;
  printf("%-16s ", name);
  for (size_t i = 0; i < n; i++) {
    printf("%02x", b[i]);
    checksum = checksum * 31 + b[i];
  }
  printf("\n");
}

#define ONES(T, f)                                                                                 \
  do {                                                                                             \
    T v;                                                                                           \
    memset(&v, 0, sizeof v);                                                                       \
    v.f = -1;                                                                                      \
    dump(#T "." #f, &v, sizeof v);                                                                 \
  } while (0)

#define SHAPE(T) printf("%-14s size %2zu align %zu\n", #T, sizeof(T), _Alignof(T))

int main(void) {
  SHAPE(struct units);
  SHAPE(struct wide);
  SHAPE(struct mixed);
  SHAPE(struct zero);
  SHAPE(union overlay);
  SHAPE(struct packed);
  SHAPE(struct pragma);
  SHAPE(struct pragma2);
  printf("offsets %zu %zu %zu %zu\n", offsetof(struct units, tail), offsetof(struct wide, after),
         offsetof(struct mixed, c), offsetof(struct pragma, c));
  ONES(struct units, a);
  ONES(struct units, b);
  ONES(struct units, c);
  ONES(struct wide, lo);
  ONES(struct wide, mid);
  ONES(struct wide, hi);
  ONES(struct mixed, s);
  ONES(struct mixed, flag);
  ONES(struct mixed, e);
  ONES(struct mixed, u);
  ONES(struct zero, x);
  ONES(struct zero, y);
  ONES(struct zero, z);
  ONES(union overlay, a);
  ONES(union overlay, b);
  ONES(struct packed, y);
  ONES(struct packed, z);
  ONES(struct pragma, a);
  ONES(struct pragma, b);
  ONES(struct pragma, d);
  ONES(struct pragma2, i);
  ONES(struct pragma2, j);
  printf("checksum %lu\n", checksum);
  return (int)(checksum % 251);
}
