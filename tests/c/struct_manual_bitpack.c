/* Packing several small fields into one integer with shifts and masks (what bit-fields would
   do, written by hand): an RGB565 color, a date in 16 bits, and a packed instruction word. */
#include <stdio.h>

typedef unsigned short rgb565;

static rgb565 pack_rgb(unsigned r, unsigned g, unsigned b) {
  return (rgb565)(((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3));
}
static void unpack_rgb(rgb565 c, unsigned *r, unsigned *g, unsigned *b) {
  *r = (c >> 11 & 0x1F) << 3;
  *g = (c >> 5 & 0x3F) << 2;
  *b = (c & 0x1F) << 3;
}

/* year since 1980 in 7 bits, month in 4, day in 5 (the FAT date format). */
static unsigned short pack_date(int y, int m, int d) { return (unsigned short)((y - 1980) << 9 | m << 5 | d); }
static void print_date(unsigned short v) { printf("%04d-%02d-%02d", (v >> 9) + 1980, v >> 5 & 15, v & 31); }

/* op:6 rd:5 rs:5 imm:16, imm sign-extended on decode. */
static unsigned encode(unsigned op, unsigned rd, unsigned rs, int imm) {
  return op << 26 | rd << 21 | rs << 16 | ((unsigned)imm & 0xFFFFu);
}
static int decode_imm(unsigned w) {
  int imm = (int)(w & 0xFFFFu);
  return imm >= 0x8000 ? imm - 0x10000 : imm;
}

int main(void) {
  unsigned colors[][3] = {{255, 255, 255}, {255, 0, 0}, {0, 255, 0}, {18, 52, 86}, {0, 0, 0}};
  for (int i = 0; i < 5; i++) {
    rgb565 c = pack_rgb(colors[i][0], colors[i][1], colors[i][2]);
    unsigned r, g, b;
    unpack_rgb(c, &r, &g, &b);
    printf("rgb(%u,%u,%u) -> %04x -> (%u,%u,%u)\n", colors[i][0], colors[i][1], colors[i][2], c, r, g, b);
  }
  unsigned short dates[] = {pack_date(1980, 1, 1), pack_date(2024, 2, 29), pack_date(2107, 12, 31)};
  for (int i = 0; i < 3; i++) { print_date(dates[i]); printf(" = %04x\n", dates[i]); }
  int imms[] = {0, 1, -1, 32767, -32768, 1234};
  int ok = 0;
  for (int i = 0; i < 6; i++) {
    unsigned w = encode((unsigned)i + 10, 31 - (unsigned)i, (unsigned)i * 3, imms[i]);
    int back = decode_imm(w);
    ok += back == imms[i] && (w >> 26) == (unsigned)i + 10 && (w >> 21 & 31) == 31u - (unsigned)i;
    printf("%08x op %u rd %u rs %u imm %d\n", w, w >> 26, w >> 21 & 31, w >> 16 & 31, back);
  }
  return ok + dates[1] % 100;
}
