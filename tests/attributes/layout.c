/* aligned and packed: globals, locals over 16 bytes (the stack slot is
   realigned), struct members, packed structs and #pragma pack. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct member_aligned { char c; int x __attribute__((aligned(16))); };
struct packed { char c; int x; short s; } __attribute__((packed));
#pragma pack(push, 2)
struct pragma_packed { char c; long l; };
#pragma pack(pop)
typedef int aligned_int __attribute__((aligned(32)));
struct over { char c; aligned_int x; };

int global64 __attribute__((aligned(64))) = 5;
static char global32[3] __attribute__((aligned(32))) = {1, 2, 3};
struct packed packed_global = {1, 0x12345678, 0x1234};

static int misaligned(const void *p, unsigned a) { return (int)((uintptr_t)p % a); }

int sum(const char *p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

int deep(int n) {
  _Alignas(64) char buf[100];
  __attribute__((aligned(32))) int words[5];
  for (int i = 0; i < 100; ++i) buf[i] = (char)(i + n);
  for (int i = 0; i < 5; ++i) words[i] = i * n;
  if (misaligned(buf, 64) || misaligned(words, 32)) return -1;
  return sum(buf, 100) + words[4] + (n > 0 ? deep(n - 1) : 0);
}

int main(void) {
  struct over o[2];
  struct packed p[2];
  memset(p, 0, sizeof p);
  p[1].x = 0x01020304;
  p[1].s = 7;
  printf("sizes %zu %zu %zu %zu\n", sizeof(struct member_aligned), sizeof(struct packed),
         sizeof(struct pragma_packed), sizeof(struct over));
  printf("offsets %zu %zu %zu %zu\n", __builtin_offsetof(struct member_aligned, x), __builtin_offsetof(struct packed, x),
         __builtin_offsetof(struct pragma_packed, l), __builtin_offsetof(struct over, x));
  printf("aligned %d %d %d %d\n", misaligned(&global64, 64), misaligned(global32, 32), misaligned(&o[1].x, 32),
         global32[2]);
  printf("packed %x %x %d %d\n", packed_global.x, p[1].x, p[1].s, (int)sizeof p);
  printf("deep %d\n", deep(3));
  return 0;
}
