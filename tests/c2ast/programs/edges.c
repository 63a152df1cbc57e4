/* Front-end corner cases: _Bool conversions, int + pointer, switch on
   wide and narrow types, struct values in calls, ?: and assignment,
   relocated globals, enums, character constants, sizeof and offsetof,
   assert (a GNU statement expression in gnu11), goto into a loop, comparisons
   in every direction. */
#include <stdio.h>
#include <assert.h>
#include <stddef.h>
struct in { int a[3]; char c; };
struct out { struct in i; long z; };
union num { unsigned u; unsigned char b[4]; };
int garr[6] = {10, 20, 30, 40, 50, 60};
int *gp = garr + 4;
const char *gs = "abcdef" + 2;
struct out gout = {{{1, 2, 3}, 'q'}, 77};
long *gz = &gout.z;
char gbuf[] = "xyz";
static int cnt;
static int *pcnt = &cnt;
int (*gfp)(const char *, ...) = printf;
enum e { NEG = -3, ZERO, BIG = 100 };
static int later(int);
struct out mk(int k) { struct out o = {{{k, k + 1, k + 2}, 'm'}, k * 10}; return o; }
static int later(int x) { return x * 3; }
int main(void) {
  _Bool b1 = gp, b2 = (void*)0, b3 = 256; printf("%d %d %d\n", b1, b2, b3);
  _Bool bb = 1; bb += 1; printf("%d\n", bb); bb -= 1; printf("%d\n", bb); bb *= 5; printf("%d\n", bb);
  int i = 2; printf("%d %d %d\n", *(i + garr), i[garr], *(gp - i));
  printf("%s %d %ld %c\n", gs, *gp, *gz, gout.i.c);
  unsigned long long big = 0xfffffffffffffff0ULL;
  switch (big) { case 0xfffffffffffffff0ULL: printf("hit\n"); break; default: printf("miss\n"); }
  unsigned char uc = 255; switch (uc) { case 255: printf("255\n"); break; case -1: printf("-1\n"); }
  signed char sch = -1; switch (sch) { case -1: printf("m1\n"); break; case 255: printf("bad\n"); }
  struct out o = mk(4); printf("%d %ld %c\n", o.i.a[2], o.z, mk(1).i.c);
  struct out o2 = i > 1 ? mk(7) : o; printf("%d\n", o2.i.a[0]);
  struct in *pin = &o.i; *pin = mk(9).i; printf("%d %d\n", o.i.a[1], pin->a[2]);
  union num n = {0x01020304}; printf("%d %d\n", n.b[0], n.b[3]);
  *pcnt += 5; printf("%d\n", cnt);
  gfp("%s\n", gbuf);
  printf("%d %d %d\n", NEG, ZERO, BIG);
  enum e ev = NEG; switch (ev) { case NEG: printf("neg\n"); break; default: break; }
  printf("%d\n", later(14));
  printf("%d %d\n", '\xff', (unsigned char)'\xff');
  printf("%zu %zu %zu\n", sizeof(struct out), _Alignof(struct out), offsetof(struct out, z));
  printf("%u %ld\n", 0x80000000, -2147483648);
  int x = 0; (void)x; assert(x == 0);
  for (int a = 0, c = 10; a < c; a++, c--) x += a * c;
  printf("%d\n", x);
  int k = 0;
  goto inside;
  while (k < 5) {
    k += 2;
  inside:
    k++;
  }
  printf("%d\n", k);
  do { if (k) { k--; continue; } } while (0);
  printf("%d\n", k);
  const char *msg = "tab\there" "\n"; printf("%s", msg);
  int arr2[3][2] = {{1, 2}, {3, 4}, {5, 6}}; int (*row)[2] = arr2; row++; printf("%d\n", row[1][0]);
  long diff = (char*)&arr2[2][1] - (char*)arr2; printf("%ld\n", diff);
  void *vp = garr; vp = (char*)vp + 4; printf("%d\n", *(int*)vp);
  unsigned long addr = (unsigned long)garr; int *back = (int*)addr; printf("%d\n", back[1]);
  int *np = 0; printf("%d %d\n", np == 0, !np);
  printf("%s\n", __func__);
  short s1 = -32768; s1--; printf("%d\n", s1);
  unsigned u1 = 3; int neg = -5; printf("%d %u\n", u1 > neg, u1 + neg);
  long long m = 1; m <<= 62; m >>= 61; printf("%lld\n", m);
  int sh = -16; printf("%d %d\n", sh >> 2, (unsigned)sh >> 28);
  printf("%d\n", (i > 1) + (i >= 2) + (i < 3) + (3 > i) + (2 >= i));
  return 0;
}
