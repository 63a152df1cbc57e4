/* Recursion that sonopt's inline-recursive copies into itself (-O2) and
   inline's -O1 policy meets: every copy needs its own frame objects (a
   local array, a local whose address goes to the next level), its own
   label addresses (taken and compared within one activation), the effects
   in the order the calls make them (a counter and a checksum per move),
   statics shared by every copy, recursion deeper than the levels copied,
   self calls inside a loop, two self calls per level, a noinline and a
   variadic recursive function (never copied), mutual recursion, and small
   `inline` and static helpers called from the recursion. Every result is
   printed. */
#include <stdarg.h>
#include <stdio.h>

static unsigned long moves, check;

static void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  moves++;
  check = check * 31 + (unsigned long)(from * 3 + to);
  hanoi(n - 1, via, to, from);
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

/* A local array per activation, written before the self call and read
   after it. */
static int frames(int n) {
  int a[4];
  for (int i = 0; i < 4; i++) a[i] = n * 10 + i;
  int below = n > 0 ? frames(n - 1) : 0;
  return below * 3 + a[n & 3] - a[(n + 1) & 3];
}

/* A local whose address the next level writes through. */
static int chain(int n, int *parent) {
  int mine = n;
  if (parent) *parent += 100;
  if (n > 0) chain(n - 1, &mine);
  return mine;
}

/* A label's address, taken and compared within each activation. */
static int labels(int n) {
  void *p = &&here;
  int same = 0;
here:
  if (p == &&here) same = 1;
  return n <= 0 ? same : same + labels(n - 1);
}

/* A self call inside a loop: the permutations of n items, counted, with a
   checksum of their order. */
static int perm[8], used[8];
static unsigned long perms, perm_check;
static void permute(int k, int n) {
  if (k == n) {
    perms++;
    for (int i = 0; i < n; i++) perm_check = perm_check * 7 + (unsigned long)perm[i];
    return;
  }
  for (int i = 0; i < n; i++) {
    if (used[i]) continue;
    used[i] = 1;
    perm[k] = i;
    permute(k + 1, n);
    used[i] = 0;
  }
}

static int depth_calls;
static int counted(int n) {
  static int calls;  /* shared by every copy */
  calls++;
  depth_calls = calls;
  return n <= 0 ? 0 : 1 + counted(n - 1) * 2 % 1000003;
}

__attribute__((noinline)) static int kept(int n) { return n <= 1 ? 1 : n * kept(n - 1) % 10007 + kept(n - 2); }

static int vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int first = va_arg(ap, int);
  va_end(ap);
  return n <= 0 ? first : first + vsum(n - 1, first + 1);
}

static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

static inline int sq(int x) { return x * x; }
static int twice(int x) { return 2 * x; }
static int tree(int n) { return n <= 0 ? 1 : sq(tree(n - 1) % 100) + twice(tree(n - 2) % 50) + 1; }

int main(void) {
  hanoi(12, 0, 2, 1);
  printf("hanoi: %lu moves, check %lu\n", moves, check);
  printf("fib(20) = %d\n", fib(20));
  printf("frames(13) = %d\n", frames(13));
  int top = -1;
  int c = chain(11, &top);
  printf("chain(11) = %d, top %d\n", c, top);
  printf("labels(12) = %d\n", labels(12));
  permute(0, 5);
  printf("permutations: %lu, check %lu\n", perms, perm_check);
  c = counted(25);
  printf("counted(25) = %d after %d calls\n", c, depth_calls);
  printf("kept(15) = %d\n", kept(15));
  printf("vsum(9) = %d\n", vsum(9, 4));
  printf("is_even(17) = %d, is_odd(17) = %d\n", is_even(17), is_odd(17));
  printf("tree(12) = %d\n", tree(12));
  return 0;
}
