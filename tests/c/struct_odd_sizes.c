/* Structs whose sizes are not multiples of 8 (1, 3, 5, 7, 13 bytes) copied by assignment, by
   value and through memcpy, inside arrays where neighbours must stay untouched. */
#include <stdio.h>
#include <string.h>

struct s1 { char a; };
struct s3 { char a[3]; };
struct s5 { char a[5]; };
struct s7 { unsigned char a[7]; };
/* 14 bytes with no padding: sum() reads every byte of the arrays, and a
   padding byte takes an unspecified value when a struct is stored (C11
   6.2.6.1p6), so with padding the checksum was the stack's (gcc's build and
   ours agreed or not with the loader's leftovers). */
struct s13 { char tag; char pad; short s; char rest[10]; };

static struct s7 rot7(struct s7 v) {
  struct s7 r;
  for (int i = 0; i < 7; i++) r.a[i] = v.a[(i + 1) % 7];
  return r;
}

static struct s13 bump13(struct s13 v) { v.tag++; v.s = (short)(v.s * 2); v.rest[8] = 'Z'; return v; }

static unsigned sum(const void *p, size_t n) {
  const unsigned char *b = p;
  unsigned s = 0;
  for (size_t i = 0; i < n; i++) s = s * 3 + b[i];
  return s;
}

int main(void) {
  printf("sizes %d %d %d %d %d\n", (int)sizeof(struct s1), (int)sizeof(struct s3), (int)sizeof(struct s5),
         (int)sizeof(struct s7), (int)sizeof(struct s13));
  struct s3 a3[4];
  memset(a3, 0x11, sizeof a3);
  struct s3 v3 = {{'x', 'y', 'z'}};
  a3[1] = v3;
  a3[2] = a3[1];
  printf("a3 %u\n", sum(a3, sizeof a3));
  struct s5 a5[3] = {{"abcd"}, {"efgh"}, {"ijkl"}};
  a5[0] = a5[2];
  printf("a5 %s %s %s\n", a5[0].a, a5[1].a, a5[2].a);
  struct s7 a7[3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 7; j++) a7[i].a[j] = (unsigned char)(i * 10 + j);
  a7[1] = rot7(a7[1]);
  printf("a7 %u mid %u %u\n", sum(a7, sizeof a7), a7[1].a[0], a7[1].a[6]);
  struct s13 a13[3];
  memset(a13, 0, sizeof a13);
  struct s13 base = {'a', 0, 300, "12345678"};
  a13[1] = bump13(base);
  a13[2] = bump13(a13[1]);
  printf("a13 %c %d %s | %c %d %.9s | %u\n", a13[1].tag, a13[1].s, a13[1].rest, a13[2].tag, a13[2].s,
         a13[2].rest, sum(a13, sizeof a13));
  struct s1 ones[5] = {{'1'}, {'2'}, {'3'}, {'4'}, {'5'}};
  struct s1 t = ones[0];
  ones[0] = ones[4];
  ones[4] = t;
  printf("ones %c%c%c%c%c\n", ones[0].a, ones[1].a, ones[2].a, ones[3].a, ones[4].a);
  return (int)(sum(a7, sizeof a7) % 256);
}
