/* Arbitrary-precision unsigned integers in base 10^9 limbs: factorials, powers of two, and
   Fibonacci numbers with hundreds of digits. */
#include <stdio.h>
#include <string.h>

#define LIMBS 64
#define BASE 1000000000u

struct big { int n; unsigned int d[LIMBS]; };

static void set_small(struct big *a, unsigned int v) {
  memset(a, 0, sizeof *a);
  a->d[0] = v % BASE;
  a->d[1] = v / BASE;
  a->n = a->d[1] ? 2 : 1;
}

static void mul_small(struct big *a, unsigned int m) {
  unsigned long long carry = 0;
  for (int i = 0; i < a->n; i++) {
    unsigned long long cur = (unsigned long long)a->d[i] * m + carry;
    a->d[i] = (unsigned int)(cur % BASE);
    carry = cur / BASE;
  }
  while (carry) {
    a->d[a->n++] = (unsigned int)(carry % BASE);
    carry /= BASE;
  }
}

static void add(struct big *r, const struct big *a, const struct big *b) {
  int n = a->n > b->n ? a->n : b->n;
  unsigned int carry = 0;
  for (int i = 0; i < n; i++) {
    unsigned int s = (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0) + carry;
    carry = s >= BASE;
    r->d[i] = s - (carry ? BASE : 0);
  }
  r->n = n;
  if (carry) r->d[r->n++] = carry;
}

static int print(const struct big *a) {
  char buf[LIMBS * 9 + 1];
  int len = sprintf(buf, "%u", a->d[a->n - 1]);
  for (int i = a->n - 2; i >= 0; i--) len += sprintf(buf + len, "%09u", a->d[i]);
  printf("%s\n", buf);
  int digit_sum = 0;
  for (int i = 0; i < len; i++) digit_sum += buf[i] - '0';
  printf("  (%d digits, digit sum %d)\n", len, digit_sum);
  return digit_sum;
}

int main(void) {
  struct big f;
  set_small(&f, 1);
  for (unsigned int k = 2; k <= 100; k++) mul_small(&f, k);
  printf("100! = ");
  int ds = print(&f);
  struct big p;
  set_small(&p, 1);
  for (int k = 0; k < 256; k++) mul_small(&p, 2);
  printf("2^256 = ");
  print(&p);
  struct big a, b, c;
  set_small(&a, 0);
  set_small(&b, 1);
  for (int k = 0; k < 500; k++) {
    add(&c, &a, &b);
    a = b;
    b = c;
  }
  printf("fib(500) = ");
  print(&a);
  set_small(&c, 4000000000u);
  mul_small(&c, 4000000000u);
  printf("4e9^2 = ");
  print(&c);
  return ds;
}
