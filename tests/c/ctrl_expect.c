/* __builtin_expect and __builtin_expect_with_probability on every kind of
   condition (issue 19: branch probabilities from C to the layout): if,
   while, for, do, ?:, && and ||, the kernel's likely/unlikely, `!` and
   `== 0` of it, comparisons of the expected value, and the noreturn and
   cold paths gcc predicts as unlikely. Both sides of every branch run. */
#include <stdio.h>
#include <stdlib.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

__attribute__((cold, noinline)) static int slow_path(int x) {
  printf("slow %d\n", x);
  return x * 3;
}

__attribute__((noreturn)) static void die(const char *why) {
  printf("die: %s\n", why);
  exit(3);
}

static int classify(int x) {
  if (unlikely(x < 0)) return slow_path(x);
  if (likely(x < 100)) return x + 1;
  if (__builtin_expect(x == 1000, 0) == 0) return x - 1;  /* `== 0` of it */
  return 7;
}

static int sum_until(const int *a, int n, int stop) {
  int s = 0;
  for (int i = 0; likely(i < n); ++i) {
    if (__builtin_expect_with_probability(a[i] == stop, 1, 0.01)) break;
    s += a[i];
  }
  return s;
}

static int loops(int n) {
  int k = 0, t = n;
  unsigned u = (unsigned)n & 0xffu;
  while (__builtin_expect(t > 0, 1)) { k += t & 3; t -= 3; }
  do { k ^= (int)u; u >>= 1; } while (!__builtin_expect(u == 0, 0));
  return k;
}

static int picks(int a, int b) {
  int r = __builtin_expect(a > b, 1) ? a - b : b - a;  /* ?: */
  if (unlikely(a == 3) || likely(b != 4)) r += 10;     /* || */
  if (likely(a > 0) && unlikely(b > 50)) r += 100;     /* && */
  if (__builtin_expect(a, 5) == 5) r += 1000;          /* expected value */
  if (__builtin_expect(b, 5) != 5) r += 2000;
  r += __builtin_expect(a + b, 0);                     /* a plain value */
  return r;
}

static int checked(int x) {
  if (x > 1000000) die("too big");
  if (x == -12345) __builtin_unreachable();
  if (x == 7) { printf("seven\n"); abort(); }
  return x * 2;
}

int main(void) {
  int vals[] = {-5, 0, 42, 99, 100, 1000, 5000};
  for (int i = 0; i < 7; ++i) printf("classify(%d) = %d\n", vals[i], classify(vals[i]));
  int arr[] = {4, 8, 15, 16, 23, 42};
  printf("sum %d %d %d\n", sum_until(arr, 6, 16), sum_until(arr, 6, 99), sum_until(arr, 0, 4));
  for (int n = -2; n < 12; n += 3) printf("loops(%d) = %d\n", n, loops(n));
  for (int a = 0; a < 6; ++a)
    for (int b = 2; b < 60; b += 19) printf("picks(%d,%d) = %d\n", a, b, picks(a, b));
  for (int x = -3; x < 40; x += 11) printf("checked(%d) = %d\n", x, checked(x));
  unsigned long u = 0;
  for (unsigned long i = 0; i < 300; ++i)
    u += __builtin_expect_with_probability(i % 7 == 0, 0, 0.9) ? i : 1;
  printf("u = %lu\n", u);
  return checked(2000000);
}
