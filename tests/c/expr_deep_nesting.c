/* Deeply nested and long expressions: 60-term sums, chains of ?:, nested parentheses, nested
   calls as arguments, and mixed-type arithmetic inside one expression. */
#include <stdio.h>

static int f(int a, int b) { return a * 3 - b; }
static long g(long a) { return a / 2 + 1; }

int main(void) {
  int v[8] = {3, -1, 4, -1, 5, -9, 2, 6};
  int a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], h = v[5], i = v[6], j = v[7];
  long sum = a + b + c + d + e + h + i + j + a * b + c * d + e * h + i * j + a - b - c - d +
             (a + (b + (c + (d + (e + (h + (i + (j + 1)))))))) + a * b * c + d * e * h +
             i * j * a + (a ^ b) + (c | d) + (e & h) + (i << 2) + (j >> 1) + -a + ~b + !c +
             (a < b) + (c > d) + (e <= h) + (i >= j) + (a == b) + (c != d) + a % 2 + b % 3 +
             c / 2 + d / 3 + e * 7 + h * 11 + i * 13 + j * 17 + 19 + 23 + 29 + 31;
  printf("sum %ld\n", sum);
  int grade = a > 5 ? 1 : b > 5 ? 2 : c > 5 ? 3 : d > 5 ? 4 : e > 4 ? 5 : h > 5 ? 6 : 7;
  printf("grade %d\n", grade);
  int nested = f(f(f(a, b), f(c, d)), f(f(e, h), f(i, j)));
  printf("nested %d\n", nested);
  long calls = g(g(g(g(g(g(g(g(1000000L))))))));
  printf("calls %ld\n", calls);
  unsigned char uc = 200;
  short s = -300;
  unsigned u = 4000000000u;
  long long ll = -5;
  long long mixed = (uc + s) * (long long)u / (ll - 1) + (u >> (uc % 8)) - (s < uc) * ll;
  printf("mixed %lld\n", mixed);
  int p = ((((((((((a + 1) * 2) - 3) * 4) + 5) * 6) - 7) * 8) + 9) * 10);
  printf("p %d\n", p);
  int logic = (a && b) || (c && !d) || (e && h && i && j) ? (a || 0) + (b && c) : -1;
  printf("logic %d\n", logic);
  return (int)((sum + grade + nested + calls + p) % 256);
}
