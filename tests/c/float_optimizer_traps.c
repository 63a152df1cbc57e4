/* Floating point where an integer-minded optimizer goes wrong: x + 0.0
   with x = -0.0, x * 0.0 with x negative or infinite, x - x and x == x
   with NaN and infinity, reassociation ((a + b) + c against a + (b + c)),
   a tail-recursive float sum (no accumulator reordering), a loop storing
   -0.0 (not a memset of zeros), a struct of doubles in a local (scalar
   replacement), a union written as a double and read as an integer (no
   store-to-load forwarding across types), and a float loop counter. */
#include <stdio.h>

union bits { double d; long long i; };
struct pt { double x, y; };

static volatile double volatile_zero = 0.0;

static double add_zero(double x) { return x + 0.0; }
static double times_zero(double x) { return x * 0.0; }
static double minus_self(double x) { return x - x; }
static int equals_self(double x) { return x == x; }
static int not_equals_self(double x) { return x != x; }
static double sum_to(int n) { return n == 0 ? 0.0 : 0.1 * n + sum_to(n - 1); }
static double sum_from(int n, double acc) { return n == 0 ? acc : sum_from(n - 1, acc + 1.0 / n); }

static long long punned(double d) {
  union bits u;
  u.d = d;
  return u.i;
}

static double norm2(double a, double b) {
  struct pt p = {a, b};
  p.x *= p.x;
  p.y *= p.y;
  return p.x + p.y;
}

int main(void) {
  double zero = volatile_zero, nzero = -zero, inf = 1.0 / zero, nan = zero / zero;
  double xs[] = {nzero, zero, -3.0, inf, -inf, nan};
  for (int i = 0; i < 6; i++) {
    double x = xs[i];
    printf("%g: +0 %g *0 %g x-x %g ==x %d !=x %d\n", x, add_zero(x), times_zero(x), minus_self(x), equals_self(x),
           not_equals_self(x));
  }
  double a = 1e308, b = -1e308, c = 1e308;
  printf("(a+b)+c %g a+(b+c) %g\n", (a + b) + c, a + (b + c));
  double p = 0.1, q = 0.2, r = 0.3;
  printf("%.17g %.17g\n", (p + q) + r, p + (q + r));
  printf("sum_to %.17g sum_from %.17g\n", sum_to(100), sum_from(100, 0.0));
  double arr[8];
  for (int i = 0; i < 8; i++) arr[i] = nzero;
  int negative = 0;
  for (int i = 0; i < 8; i++) negative += punned(arr[i]) < 0;
  printf("negative zeros %d bits %llx\n", negative, (unsigned long long)punned(arr[3]));
  printf("norm2 %.17g\n", norm2(3.0, 4.0));
  int steps = 0;
  for (float t = 0.0f; t != 1.0f && steps < 100; t += 0.125f) steps++;
  double halves = 1.0;
  while (halves * 0.5 != 0.0) halves *= 0.5;
  printf("steps %d smallest %g\n", steps, halves);
  return steps + negative;
}
