/* Rational numbers as a struct passed and returned by value: normalization, arithmetic,
   comparison, and the harmonic numbers and a continued fraction expansion. */
#include <stdio.h>

typedef struct { long long num, den; } rat;

static long long gcd(long long a, long long b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) { long long t = a % b; a = b; b = t; }
  return a;
}

static rat make(long long n, long long d) {
  if (d < 0) { n = -n; d = -d; }
  long long g = gcd(n, d);
  rat r = {g ? n / g : 0, g ? d / g : 1};
  return r;
}

static rat add(rat a, rat b) { return make(a.num * b.den + b.num * a.den, a.den * b.den); }
static rat sub(rat a, rat b) { b.num = -b.num; return add(a, b); }
static rat mul(rat a, rat b) { return make(a.num * b.num, a.den * b.den); }
static rat divide(rat a, rat b) { return make(a.num * b.den, a.den * b.num); }
static int cmp(rat a, rat b) {
  long long l = a.num * b.den, r = b.num * a.den;
  return (l > r) - (l < r);
}
static void print(const char *label, rat r) { printf("%s %lld/%lld\n", label, r.num, r.den); }

int main(void) {
  rat half = make(1, 2), third = make(-2, -6), neg = make(3, -4);
  print("half", half);
  print("third", third);
  print("neg", neg);
  print("sum", add(half, third));
  print("diff", sub(third, half));
  print("prod", mul(half, neg));
  print("quot", divide(neg, third));
  printf("cmp %d %d %d\n", cmp(half, third), cmp(neg, half), cmp(half, make(2, 4)));
  rat h = make(0, 1);
  for (int k = 1; k <= 20; k++) h = add(h, make(1, k));
  print("H(20)", h);
  /* Continued fraction of 415/93. */
  rat x = make(415, 93);
  printf("cf:");
  for (int i = 0; i < 10 && x.den != 0; i++) {
    long long q = x.num / x.den;
    printf(" %lld", q);
    rat frac = sub(x, make(q, 1));
    if (frac.num == 0) break;
    x = divide(make(1, 1), frac);
  }
  printf("\n");
  return (int)(h.num % 256);
}
