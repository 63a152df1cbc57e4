/* Sibling calls (return f(args); as a jump at -O2): every shape of call in
   tail position, and ones that must stay calls. The sib_* functions are
   sibling calls in pipecc -O2's build; the keep_* ones are not (a local's
   address passed, stack arguments, a struct result, a conversion after,
   a store after). tests/test_sibling_calls.py checks the jumps with
   objdump and runs the mutual recursion 10 million deep (argv[1]). */
#include <stdio.h>

#define NI __attribute__((noinline))
struct pair { long a, b; };
struct big { long v[4]; };
int counter;

NI int add3(int a, int b, int c) { return a * 100 + b * 10 + c; }
NI double scale(double x, int k) { return x * k; }
NI void note(int x) { counter += x; }
NI char upper(int c) { return (char)(c - 32); }
NI _Bool odd_bit(long x) { return x & 1; }
NI long six(long a, long b, long c, long d, long e, long f) { return a - b + c - d + e - f; }
NI long eight(long a, long b, long c, long d, long e, long f, long g, long h) { return a + b + c + d + e + f + g + h; }
NI int deref(int *p) { return *p + 1; }
NI struct pair mkpair(long x) { struct pair p = {x, -x}; return p; }
NI struct big mkbig(long x) { struct big b = {{x, x + 1, x + 2, x + 3}}; return b; }
NI int twice(int x) { return 2 * x; }
NI int negate(int x) { return -x; }
int (*ops[2])(int) = {twice, negate};
long (*six_ptr)(long, long, long, long, long, long) = six;

NI int is_odd(long n);
NI int is_even(long n) { return n == 0 ? 1 : is_odd(n - 1); }
NI int is_odd(long n) { return n == 0 ? 0 : is_even(n - 1); }

NI int sib_direct(int x) { return add3(x, x + 1, 7); }
NI int sib_swap(int a, int b) { return add3(b, a, a + b); }
NI int sib_pointer(int i, int x) { return ops[i & 1](x); }
NI long sib_pointer6(long x) { return six_ptr(x, 1, 2, 3, 4, x * 2); }
NI long sib_six(long a, long b) { return six(b, a, a, b, 9, 1); }
NI double sib_float(double x) { return scale(x + 0.5, 3); }
NI void sib_void(int x) { note(x * 3); }
NI void sib_drop(int x) { add3(x, x, x); }
NI char sib_char(int c) { return upper(c); }
NI _Bool sib_bool(long x) { return odd_bit(x + 1); }
NI int sib_printf(int x) { return printf("printf tail %d\n", x); }
NI int sib_printf_double(double d) { return printf("printf tail %.2f\n", d); }
NI int sib_saved(int x) {  /* values live across calls: callee-saved registers restored before the jump */
  int y = twice(x), z = negate(y + x);
  return add3(y, z, x);
}
NI int sib_branch(int x) { return x > 0 ? twice(x) : negate(x); }

NI int keep_local(int x) { int v = x * 3; return deref(&v); }
NI long keep_stack(long x) { return eight(x, 1, 2, 3, 4, 5, 6, 7); }
NI struct pair keep_pair(long x) { return mkpair(x + 1); }
NI struct big keep_big(long x) { return mkbig(x * 2); }
NI long keep_conv(int x) { return twice(x); }
NI int keep_after(int x) { int r = twice(x); counter++; return r; }

int main(int argc, char **argv) {
  long depth = argc > 1 ? 0 : 20001;
  for (const char *s = argc > 1 ? argv[1] : ""; *s >= '0' && *s <= '9'; s++) depth = depth * 10 + (*s - '0');
  printf("even(%ld) = %d, odd(%ld) = %d\n", depth, is_even(depth), depth, is_odd(depth));
  printf("%d %d %d %d\n", sib_direct(3), sib_swap(1, 2), sib_pointer(0, 21), sib_pointer(1, 21));
  printf("%ld %ld %.3f\n", sib_pointer6(5), sib_six(10, 20), sib_float(1.25));
  sib_void(5);
  sib_drop(2);
  printf("counter %d '%c' %d %d\n", counter, sib_char('q'), sib_bool(4), sib_bool(5));
  printf("returned %d\n", sib_printf(42));
  printf("returned %d\n", sib_printf_double(2.5));
  printf("%d %d %d\n", sib_saved(4), sib_branch(6), sib_branch(-6));
  struct pair p = keep_pair(4);
  struct big b = keep_big(5);
  printf("%d %ld %ld %ld %ld %ld\n", keep_local(4), keep_stack(1), p.a, p.b, b.v[0], b.v[3]);
  int after = keep_after(9);
  printf("%ld %d counter %d\n", keep_conv(-8), after, counter);
  return 0;
}
