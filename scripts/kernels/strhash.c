/* strhash.c - string processing: building words in a buffer, FNV-1a
   hashing, a small open-addressing table with strcmp. */
#include <string.h>
#include "common.h"

#define TABLE 4096
static char words[TABLE][16];
static int counts[TABLE];

static unsigned fnv(const char *s) {
  unsigned h = 2166136261u;
  while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
  return h;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 4000000), i;
  unsigned x = 1;
  long distinct = 0, maxc = 0;
  char w[16];
  for (i = 0; i < n; i++) {
    int len, k;
    unsigned h;
    x = x * 1103515245u + 12345u;
    len = 1 + (int)((x >> 16) % 4u);
    for (k = 0; k < len; k++) { x = x * 1103515245u + 12345u; w[k] = (char)('a' + (x >> 16) % 6u); }
    w[len] = 0;
    h = fnv(w) & (TABLE - 1);
    while (words[h][0] && strcmp(words[h], w) != 0) h = (h + 1) & (TABLE - 1);
    if (!words[h][0]) { strcpy(words[h], w); distinct++; }
    counts[h]++;
    if (counts[h] > maxc) maxc = counts[h];
  }
  printf("strhash %ld distinct, max %ld\n", distinct, maxc);
  return 0;
}
