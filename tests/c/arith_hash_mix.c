/* Hash functions over strings and integers: FNV-1a (32 and 64 bit), djb2, and a 64-bit finalizer. */
#include <stdio.h>

static unsigned int fnv1a32(const char *s) {
  unsigned int h = 2166136261u;
  while (*s) {
    h ^= (unsigned char)*s++;
    h *= 16777619u;
  }
  return h;
}

static unsigned long long fnv1a64(const char *s) {
  unsigned long long h = 14695981039346656037ull;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

static unsigned long djb2(const char *s) {
  unsigned long h = 5381;
  int c;
  while ((c = (unsigned char)*s++) != 0) h = ((h << 5) + h) + c;
  return h;
}

static unsigned long long fmix64(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

int main(void) {
  const char *words[] = {"", "a", "foobar", "hello world", "sea of nodes", "pipe"};
  for (int i = 0; i < 6; i++)
    printf("%-12s fnv32 %08x fnv64 %016llx djb2 %lu\n", words[i], fnv1a32(words[i]),
           fnv1a64(words[i]), djb2(words[i]));
  /* Distribution of the finalizer over buckets. */
  int buckets[8] = {0};
  for (unsigned long long k = 0; k < 4000; k++) buckets[fmix64(k) & 7]++;
  int spread = 0;
  for (int i = 0; i < 8; i++) {
    printf("bucket %d: %d\n", i, buckets[i]);
    int d = buckets[i] - 500;
    spread += d < 0 ? -d : d;
  }
  printf("fmix64(1) = %016llx\n", fmix64(1));
  printf("spread %d\n", spread);
  return (int)(fnv1a32("exit") % 200);
}
