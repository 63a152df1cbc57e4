/* The conditional operator: result type, nesting, lvalue-free uses and side effects on one arm only. */
#include <stdio.h>

static int calls;
static int side(int v) { calls++; return v; }

static const char *sign_name(int x) { return x < 0 ? "negative" : x == 0 ? "zero" : "positive"; }

static int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

int main(void) {
  int i;
  for (i = -2; i <= 2; i++) printf("%d is %s\n", i, sign_name(i));
  /* Only the chosen arm is evaluated. */
  calls = 0;
  int r = 1 ? side(10) : side(20);
  int q = 0 ? side(30) : side(40);
  printf("r=%d q=%d calls=%d\n", r, q, calls);
  /* Common type of int and unsigned int is unsigned. */
  int neg = -1;
  unsigned int one = 1;
  printf("(1 ? neg : one) > 0: %d\n", (1 ? neg : one) > 0);
  /* Common type of char and short is int. */
  char c = 'x';
  short s = 1000;
  printf("size of (c ? c : s) = %d\n", (int)sizeof(c ? c : s));
  /* Pointer arms. */
  int a = 1, b = 2;
  int *p = a > b ? &a : &b;
  *p = 99;
  printf("a=%d b=%d\n", a, b);
  const char *msg = 0;
  printf("%s\n", msg ? msg : "(null)");
  /* Clamping. */
  int total = 0;
  for (i = -50; i <= 150; i += 25) {
    int cl = clamp(i, 0, 100);
    total += cl;
    printf("clamp(%d)=%d\n", i, cl);
  }
  /* Ternary inside loop conditions and arguments. */
  int evens = 0, odds = 0;
  for (i = 0; i < 17; i++) *(i % 2 ? &odds : &evens) += i;
  printf("evens=%d odds=%d\n", evens, odds);
  /* Long result type. */
  long big = i > 5 ? 5000000000L : 7;
  printf("big=%ld\n", big);
  printf("calls=%d total=%d\n", calls, total);
  return total / 10;
}
