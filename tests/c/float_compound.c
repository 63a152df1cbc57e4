/* Floating point operators: compound assignment (+= -= *= /= with float,
   double and integer operands on either side), ++ and -- on float and
   double lvalues (prefix and postfix, through pointers and array elements),
   the usual arithmetic conversions (float op int, float op double), ?:
   choosing between floats, loops counted by doubles, and the order of
   floating additions (no reassociation: (a + b) + c differs from a + (b + c)). */
#include <stdio.h>

static float scale = 1.5f;

static double poly(double x) { return ((2 * x - 3) * x + 0.5) * x - 1; }

int main(void) {
  float f = 0.1f;
  double d = 0.1;
  f += 1; d *= 3; f *= scale; d /= 7; f -= d; d -= f;
  printf("%.9g %.17g\n", f, d);
  int i = 10;
  i += 0.7; i -= 2.5; i *= 1.1;
  unsigned u = 3;
  u /= 0.5;
  printf("%d %u\n", i, u);
  float arr[4] = {1.5f, -2.5f, 0.0f, 8.0f};
  float *p = arr;
  (*p)++;
  ++p[1];
  float old = arr[2]--;
  double dd = 2.0;
  double post = dd++, pre = ++dd;
  printf("%g %g %g %g old %g post %g pre %g dd %g\n", arr[0], arr[1], arr[2], arr[3], old, post, pre, dd);
  double a = 1e16, b = -1e16, c = 1.0;
  printf("(a+b)+c %g a+(b+c) %g\n", (a + b) + c, a + (b + c));
  double x = 0.1 + 0.2, y = 0.3;
  printf("0.1+0.2==0.3 %d diff %g\n", x == y, x - y);
  double total = 0;
  int steps = 0;
  for (double t = 0.0; t < 1.0; t += 0.1) total += poly(t), steps++;
  printf("steps %d total %.17g\n", steps, total);
  float m = f > d ? f : (float)d;
  double mix = i / 4 + i / 4.0 + f * 2;
  printf("%g %.17g\n", m, mix);
  long double_bits = (long)(total * 1000);
  char ch = (char)(mix * 10);
  printf("%ld %d\n", double_bits, ch);
  float g = 16777216.0f;
  g += 1.0f;
  g++;
  printf("%.1f\n", g);
  return steps + (int)g % 7;
}
