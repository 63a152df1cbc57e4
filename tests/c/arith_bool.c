/* _Bool: conversion of any non-zero value to 1, arithmetic on _Bool, _Bool parameters. */
#include <stdio.h>
#include <stdbool.h>

static _Bool is_odd(int x) { return x & 1; }
static int count_true(const _Bool *v, int n) {
  int c = 0;
  for (int i = 0; i < n; i++) c += v[i];
  return c;
}

int main(void) {
  _Bool a = 5;
  _Bool b = 0;
  _Bool c = -1;
  bool d = 256;
  _Bool e = 0x100000000LL;
  _Bool flags[10];
  int i;

  printf("a=%d b=%d c=%d d=%d e=%d\n", a, b, c, d, e);
  printf("sizeof(_Bool)=%d\n", (int)sizeof(_Bool));
  /* Arithmetic promotes _Bool to int. */
  printf("a+c=%d a-c-c=%d\n", a + c, a - c - c);
  /* Incrementing a _Bool saturates at 1; decrementing flips. */
  _Bool t = 0;
  t++;
  printf("t after ++: %d\n", t);
  t++;
  printf("t after ++: %d\n", t);
  t--;
  printf("t after --: %d\n", t);
  t--;
  printf("t after --: %d\n", t);
  for (i = 0; i < 10; i++) flags[i] = is_odd(i * 3);
  printf("odd count = %d\n", count_true(flags, 10));
  /* Logical not and comparisons yield int 0/1 that convert to _Bool. */
  _Bool n = !a;
  _Bool cmp = (3 > 2);
  printf("n=%d cmp=%d\n", n, cmp);
  /* _Bool in conditions and as a counter. */
  int loops = 0;
  _Bool go = true;
  while (go) {
    loops++;
    go = loops < 7;
  }
  printf("loops=%d\n", loops);
  /* Pointer to _Bool conversion. */
  int x = 0;
  int *p = &x;
  int *q = 0;
  _Bool pb = p, qb = q;
  printf("pb=%d qb=%d\n", pb, qb);
  /* Compound assignment on _Bool. */
  _Bool acc = 0;
  acc += 2;
  printf("acc=%d\n", acc);
  acc *= 0;
  printf("acc=%d\n", acc);
  acc |= 4;
  printf("acc=%d\n", acc);
  return a + b + c + d + e + loops;
}
