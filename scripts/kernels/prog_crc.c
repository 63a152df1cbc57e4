/* prog_crc.c - bit-serial CRC-32 (the reflected polynomial 0xEDB88320)
   of a pseudo-random buffer, one bit at a time with the textbook
   `if (crc & 1) crc = (crc >> 1) ^ K; else crc >>= 1;`, and a Collatz
   walk (`n % 2 == 0 ? n / 2 : 3 * n + 1`) over a range of starts. Data-
   dependent branches and the idioms of `% 2` and `/ 2`. */
#include <stdlib.h>
#include "common.h"

static unsigned crc32_bits(const unsigned char *p, long n) {
  unsigned crc = 0xFFFFFFFFu;
  long i;
  int k;
  for (i = 0; i < n; i++) {
    crc ^= p[i];
    for (k = 0; k < 8; k++) {
      if (crc & 1) crc = (crc >> 1) ^ 0xEDB88320u;
      else crc >>= 1;
    }
  }
  return ~crc;
}

static long collatz_steps(long n) {
  long steps = 0;
  while (n != 1) {
    if (n % 2 == 0) n = n / 2;
    else n = 3 * n + 1;
    steps++;
  }
  return steps;
}

int main(int argc, char **argv) {
  long scale = kernel_scale(argc, argv, 800), i, best = 0, best_start = 0, total = 0;
  long size = 4096 * scale;
  unsigned char *buf = malloc((size_t)size);
  unsigned long seed = 99;
  for (i = 0; i < size; i++) {
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    buf[i] = (unsigned char)(seed >> 56);
  }
  printf("crc32 %08x\n", crc32_bits(buf, size));
  for (i = 1; i <= 2000 * scale; i++) {
    long s = collatz_steps(i);
    total += s;
    if (s > best) { best = s; best_start = i; }
  }
  printf("collatz: longest %ld steps from %ld, total %ld\n", best, best_start, total);
  free(buf);
  return 0;
}
