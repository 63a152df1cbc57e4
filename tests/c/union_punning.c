/* Unions: reading a different integer member than the one written (defined in C; the bytes
   are reinterpreted, little-endian on x86-64), union size, unions inside structs. */
#include <stdio.h>

union word {
  unsigned int u32;
  int i32;
  unsigned short u16[2];
  unsigned char u8[4];
  signed char s8[4];
};

union wide {
  unsigned long long u64;
  long long i64;
  unsigned int u32[2];
  unsigned char bytes[8];
};

static unsigned int bswap32(unsigned int v) {
  union word in, out;
  in.u32 = v;
  for (int i = 0; i < 4; i++) out.u8[i] = in.u8[3 - i];
  return out.u32;
}

int main(void) {
  union word w;
  w.u32 = 0x80FF0102u;
  printf("u8 %02x %02x %02x %02x\n", w.u8[0], w.u8[1], w.u8[2], w.u8[3]);
  printf("s8 %d %d %d %d\n", w.s8[0], w.s8[1], w.s8[2], w.s8[3]);
  printf("u16 %04x %04x i32 %d\n", w.u16[0], w.u16[1], w.i32);
  w.u8[3] = 0x7F;
  printf("after byte write u32 %08x i32 %d\n", w.u32, w.i32);
  w.u16[0] = 0xFFFF;
  printf("after short write u32 %08x\n", w.u32);
  printf("bswap %08x\n", bswap32(0x11223344u));
  union wide x;
  x.i64 = -2;
  printf("u64 %llx u32 %08x %08x bytes0 %u bytes7 %u\n", x.u64, x.u32[0], x.u32[1], x.bytes[0],
         x.bytes[7]);
  x.u32[1] = 0;
  printf("i64 %lld\n", x.i64);
  printf("sizes %d %d\n", (int)sizeof(union word), (int)sizeof(union wide));
  /* A union in a struct with a tag. */
  struct packet { unsigned char kind; union word payload; } pk[3];
  for (int i = 0; i < 3; i++) {
    pk[i].kind = (unsigned char)i;
    pk[i].payload.u32 = 0x01010101u * (unsigned)(i + 1);
  }
  unsigned int sum = 0;
  for (int i = 0; i < 3; i++) sum += pk[i].payload.u8[i] + pk[i].payload.u16[1];
  printf("sum %u\n", sum);
  /* Union assignment copies the whole object. */
  union word copy = w;
  printf("copy %08x\n", copy.u32);
  return (int)(sum % 256);
}
