/* Recursion in the forms sonopt's tail-recurse pass looks for, and the
   near misses it must leave alone: `?:` and if/else, an accumulator that
   is a parameter itself (tri, issue 17: tri(4) gave 16), base cases that
   return a constant other than zero or a parameter, several base cases,
   arguments passed in another order, mutual recursion, an accumulation by
   multiplication, and a call whose result is used twice. Every result is
   printed. */
#include <stdio.h>

int tri(int n) { return n <= 0 ? 0 : n + tri(n - 1); }
int tri7(int n) { return n <= 0 ? 7 : n + tri7(n - 1); }
int tri_if(int n) {
  if (n <= 0) return 0;
  return n + tri_if(n - 1);
}
int tri_rev(int n) { return n <= 0 ? 0 : tri_rev(n - 1) + n; }
long base_param(long n, long b) { return n <= 0 ? b : n * 3 + base_param(n - 1, b + 1); }
int several(int n) {
  if (n == 0) return 5;
  if (n == 1) return 11;
  if (n % 7 == 3) return n + several(n - 2);
  return 2 * n + several(n - 1);
}
int swap_args(int a, int b, int n) { return n == 0 ? a - b : a + swap_args(b, a + 1, n - 1); }
int sum_digits(unsigned v) { return v < 10 ? (int)v : (int)(v % 10) + sum_digits(v / 10); }
long pow_acc(long base, int e) { return e == 0 ? 1 : base * pow_acc(base, e - 1); }
int is_odd(int n);
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
int twice_used(int n) {
  if (n <= 1) return 1;
  int r = twice_used(n - 1);
  return r + r % 5;
}
int count_down(int n, int acc) { return n == 0 ? acc : count_down(n - 1, acc + n * n); }
int addend_global_counter;
int with_side(int n) {
  if (n == 0) return addend_global_counter;
  addend_global_counter += n;
  return n + with_side(n - 1);
}
unsigned char narrow(unsigned char n) { return n == 0 ? 200 : (unsigned char)(n + narrow(n - 1)); }
int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  for (int i = 0; i < 6; i++)
    printf("%d: %d %d %d %d %ld %d %d\n", i, tri(i), tri7(i), tri_if(i), tri_rev(i), base_param(i, 10),
           several(i + 2), swap_args(i, 3, i));
  printf("%d %ld %d %d %d\n", sum_digits(987654321u), pow_acc(3, 13), is_even(10), is_odd(7), twice_used(12));
  printf("%d %d %d %d %d\n", count_down(20, 1), with_side(6), narrow(30), ackermann(2, 3), fib(20));
  printf("%d\n", tri(1000));
  return 0;
}
