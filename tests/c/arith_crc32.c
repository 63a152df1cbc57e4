/* CRC-32 (reflected, polynomial 0xEDB88320) with a table built at run time, and Adler-32. */
#include <stdio.h>
#include <string.h>

static unsigned int crc_table[256];

static void build_table(void) {
  for (unsigned int i = 0; i < 256; i++) {
    unsigned int c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

static unsigned int crc32(const unsigned char *data, size_t len) {
  unsigned int c = 0xFFFFFFFFu;
  for (size_t i = 0; i < len; i++) c = crc_table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static unsigned int crc32_bitwise(const unsigned char *data, size_t len) {
  unsigned int c = 0xFFFFFFFFu;
  for (size_t i = 0; i < len; i++) {
    c ^= data[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}

static unsigned int adler32(const unsigned char *data, size_t len) {
  unsigned int a = 1, b = 0;
  for (size_t i = 0; i < len; i++) {
    a = (a + data[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

int main(void) {
  const char *inputs[] = {"", "a", "abc", "123456789", "The quick brown fox jumps over the lazy dog",
                          "Wikipedia"};
  build_table();
  printf("table[1]=%08x table[255]=%08x\n", crc_table[1], crc_table[255]);
  unsigned int all = 0;
  for (int i = 0; i < 6; i++) {
    const unsigned char *p = (const unsigned char *)inputs[i];
    size_t n = strlen(inputs[i]);
    unsigned int c1 = crc32(p, n), c2 = crc32_bitwise(p, n);
    printf("\"%s\": crc %08x %s adler %08x\n", inputs[i], c1, c1 == c2 ? "ok" : "MISMATCH",
           adler32(p, n));
    all ^= c1;
  }
  unsigned char block[1000];
  for (int i = 0; i < 1000; i++) block[i] = (unsigned char)(i * 7 + 3);
  printf("block crc %08x\n", crc32(block, sizeof block));
  return (int)(all & 0x7F);
}
