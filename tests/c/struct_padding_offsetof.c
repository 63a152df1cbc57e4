/* Struct layout on x86-64 SysV: padding, alignment, offsetof, trailing padding, unions. */
#include <stdio.h>
#include <stddef.h>

struct a { char c; int i; };
struct b { char c; long l; char d; };
struct c { char c1, c2; short s; int i; };
struct d { long long ll; char c; };
struct e { short s; char c[3]; };
struct nested { char tag; struct b inner; char tail; };
union u { char c; int i; long l; char buf[13]; };
struct with_union { char k; union u v; };
struct arrays { char c; int ints[3]; short sh; };

#define SHOW(T) printf("%-18s size %2d align %d\n", #T, (int)sizeof(T), (int)_Alignof(T))

int main(void) {
  SHOW(struct a);
  SHOW(struct b);
  SHOW(struct c);
  SHOW(struct d);
  SHOW(struct e);
  SHOW(struct nested);
  SHOW(union u);
  SHOW(struct with_union);
  SHOW(struct arrays);
  printf("a: c %d i %d\n", (int)offsetof(struct a, c), (int)offsetof(struct a, i));
  printf("b: c %d l %d d %d\n", (int)offsetof(struct b, c), (int)offsetof(struct b, l),
         (int)offsetof(struct b, d));
  printf("c: c1 %d c2 %d s %d i %d\n", (int)offsetof(struct c, c1), (int)offsetof(struct c, c2),
         (int)offsetof(struct c, s), (int)offsetof(struct c, i));
  printf("nested: inner %d inner.d %d tail %d\n", (int)offsetof(struct nested, inner),
         (int)offsetof(struct nested, inner.d), (int)offsetof(struct nested, tail));
  printf("with_union: v %d\n", (int)offsetof(struct with_union, v));
  printf("arrays: ints %d ints[2] %d sh %d\n", (int)offsetof(struct arrays, ints),
         (int)offsetof(struct arrays, ints[2]), (int)offsetof(struct arrays, sh));
  /* Member addresses agree with offsetof. */
  struct nested n;
  int agree = (char *)&n.inner.l - (char *)&n == (long)offsetof(struct nested, inner.l);
  printf("addresses agree %d\n", agree);
  /* Arrays of padded structs: stride is the size. */
  struct b arr[4];
  printf("stride %d\n", (int)((char *)&arr[3] - (char *)&arr[0]) / 3);
  return (int)(sizeof(struct nested) + sizeof(union u) + sizeof(struct arrays));
}
