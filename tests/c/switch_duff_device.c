/* Duff's device: a do-while interleaved with a switch, copying and summing with unrolling by 8. */
#include <stdio.h>

static void duff_copy(short *to, const short *from, int count) {
  if (count <= 0) return;
  int n = (count + 7) / 8;
  switch (count % 8) {
  case 0: do { *to++ = *from++;
  case 7:      *to++ = *from++;
  case 6:      *to++ = *from++;
  case 5:      *to++ = *from++;
  case 4:      *to++ = *from++;
  case 3:      *to++ = *from++;
  case 2:      *to++ = *from++;
  case 1:      *to++ = *from++;
          } while (--n > 0);
  }
}

static long duff_sum(const int *p, int count) {
  long s = 0;
  if (count <= 0) return 0;
  int n = (count + 3) / 4;
  switch (count & 3) {
  case 0: do { s += *p++;
  case 3:      s += *p++;
  case 2:      s += *p++;
  case 1:      s += *p++;
          } while (--n);
  }
  return s;
}

int main(void) {
  short src[40], dst[40];
  int ints[33];
  for (int i = 0; i < 40; i++) src[i] = (short)(i * i - 100);
  for (int i = 0; i < 33; i++) ints[i] = i * 3 - 7;
  int bad = 0;
  for (int count = 0; count <= 40; count += 3) {
    for (int i = 0; i < 40; i++) dst[i] = -1;
    duff_copy(dst, src, count);
    for (int i = 0; i < 40; i++) bad += i < count ? dst[i] != src[i] : dst[i] != -1;
  }
  printf("copy mismatches %d\n", bad);
  long total = 0;
  for (int count = 0; count <= 33; count++) {
    long s = duff_sum(ints, count);
    long t = 0;
    for (int i = 0; i < count; i++) t += ints[i];
    if (s != t) bad++;
    total += s;
  }
  printf("sum mismatches %d total %ld\n", bad, total);
  duff_copy(dst, src, 13);
  for (int i = 0; i < 13; i++) printf("%d ", dst[i]);
  printf("\n");
  return bad + (int)(total % 100);
}
