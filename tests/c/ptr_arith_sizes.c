/* Pointer arithmetic on every element size: char, short, int, long, long long, pointers, structs. */
#include <stdio.h>

struct s3 { char a, b, c; };
struct s12 { int x, y, z; };
struct s24 { long a; char b; long c; };

#define BYTES(p, q) ((int)((const char *)(q) - (const char *)(p)))

int main(void) {
  char c[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  short s[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  int i[8] = {100, 200, 300, 400, 500, 600, 700, 800};
  long l[8] = {1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000};
  long long ll[8] = {-1, -2, -3, -4, -5, -6, -7, -8};
  int *pp[8];
  struct s3 a3[4] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
  struct s12 a12[4] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
  struct s24 a24[3] = {{1, 'x', 2}, {3, 'y', 4}, {5, 'z', 6}};
  int k;

  for (k = 0; k < 8; k++) pp[k] = &i[7 - k];
  printf("char: %d %d bytes %d\n", *(c + 3), *(c + 7) - *(c + 2), BYTES(c, c + 5));
  printf("short: %d %d bytes %d\n", *(s + 3), s[7] - *(s + 2), BYTES(s, s + 5));
  printf("int: %d bytes %d\n", *(i + 3), BYTES(i, i + 5));
  printf("long: %ld bytes %d\n", *(l + 3), BYTES(l, l + 5));
  printf("llong: %lld bytes %d\n", *(ll + 3), BYTES(ll, ll + 5));
  printf("ptr: %d bytes %d\n", **(pp + 3), BYTES(pp, pp + 5));
  printf("s3: %d bytes %d\n", (a3 + 2)->b, BYTES(a3, a3 + 3));
  printf("s12: %d bytes %d\n", (a12 + 2)->z, BYTES(a12, a12 + 3));
  printf("s24: %c %ld bytes %d\n", (a24 + 1)->b, (a24 + 2)->c, BYTES(a24, a24 + 2));
  /* Differences are in elements, not bytes. */
  short *sp = &s[6];
  long long *llp = &ll[1];
  struct s12 *p12 = &a12[3];
  printf("diffs: %d %d %d %d\n", (int)(sp - s), (int)(llp - ll), (int)(p12 - a12),
         (int)(&pp[7] - &pp[2]));
  /* Walking backwards and with negative offsets. */
  long sum = 0;
  for (long *lp = l + 7; lp >= l + 1; lp -= 2) sum += *lp;
  printf("sum odd longs %ld\n", sum);
  int *mid = i + 4;
  printf("mid[-2] %d mid[3] %d -1[mid] %d\n", mid[-2], mid[3], -1 [mid]);
  /* Increment/decrement and compound assignment on pointers of every size. */
  char *cp = c; cp += 6; cp--;
  short *sq = s; sq++; sq += 2;
  long long *lq = ll + 7; lq -= 3; --lq;
  struct s3 *q3 = a3; q3++; ++q3;
  printf("cp %d sq %d lq %lld q3 %d\n", *cp, *sq, *lq, q3->a);
  /* Index with types of different widths and signedness. */
  unsigned char uidx = 2;
  long lidx = 5;
  short sidx = -1;
  printf("idx: %d %ld %d\n", i[uidx], l[lidx], (i + 3)[sidx]);
  return (int)((sum + *cp + *sq + q3->a) % 256);
}
