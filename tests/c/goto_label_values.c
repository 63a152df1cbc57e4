/* GNU C labels as values beyond a dispatch loop: label addresses kept in
   variables, structs and static tables, compared (only the same label
   twice: gcc may merge labels whose code is alike), differences of labels,
   a computed goto inside a statement expression, computed gotos backwards and forwards, out of
   nested blocks and loops, and in a function called from several places;
   an inline function whose label addresses each inlined copy renames. */
#include <stdio.h>

struct state {
  const char *name;
  void *on_even, *on_odd;
};

static int collatz_steps(unsigned n) {
  static struct state machine[] = {{"even", &&halve, &&triple}};
  int steps = 0;
  void *next = n % 2 ? machine[0].on_odd : machine[0].on_even;
again:
  if (n == 1) return steps;
  steps++;
  goto *next;
halve:
  n /= 2;
  next = n % 2 ? machine[0].on_odd : machine[0].on_even;
  goto again;
triple:
  n = 3 * n + 1;
  next = &&halve;          /* 3n + 1 is even */
  goto again;
}

/* A label's address leaves its function only through a static table (gcc
   warns about other escapes). */
static void *where_am_i(int k) {
  static void *const labels[] = {&&outer, &&inner};
  if (k) {
  inner:
    printf("inner ");
    return labels[1];
  }
outer:
  printf("outer ");
  return labels[0];
}

static int nested_exit(int limit) {
  void *out = &&done, *resume = &&loop;
  int total = 0, i = 0;
loop:
  for (int j = 0; j < 10; j++) {
    {
      int local = i * 10 + j;
      total += local;
      if (total > limit) goto *out;
      if (j == i) { i++; goto *resume; }
    }
  }
  i++;
  goto *resume;
done:
  return total * 100 + i;
}

static long label_distance(void) {
  long d = (char *)&&second - (char *)&&first;
  static const long table[] = {&&second - &&first, &&first - &&second, &&third - &&first};
  goto *(&&first + d);
first:
  return -1;
second:
  if (table[0] != d || table[1] != -d) return -2;
  goto *(&&first + table[2]);
third:
  return table[1] + table[0] + 10;
}

/* A computed goto inside a statement expression (a dispatch macro). */
#define JUMP_IF_ODD(v, odd) ({ if ((v) & 1) goto *(odd); (v) / 2; })
static int halvings(int v) {
  void *odd = &&found;
  int steps = 0;
  while (v > 0) { v = JUMP_IF_ODD(v, odd); steps++; }
  return -1;
found:
  return steps;
}

/* Label addresses without a computed goto: sonopt inlines it (labeladdr
   renamed into each caller), the comparisons hold in every copy. */
static inline int pick(int k) {
  void *p = k ? &&one : &&two;
  if (p == &&one) { one: return 1; }
  if (p == &&two) { two: return 2; }
  return 0;
}

int main(void) {
  unsigned starts[] = {1, 6, 7, 27, 97};
  for (int i = 0; i < 5; i++) printf("collatz(%u) = %d\n", starts[i], collatz_steps(starts[i]));
  void *a = where_am_i(1), *b = where_am_i(0), *c = where_am_i(1);
  printf("same label twice %d, null %d %d\n", a == c, a == 0, b == 0);
  printf("nested_exit: %d %d %d\n", nested_exit(40), nested_exit(200), nested_exit(100000));
  printf("label_distance: %ld\n", label_distance());
  printf("halvings: %d %d %d\n", halvings(40), halvings(7), halvings(1024));
  printf("pick: %d %d %d\n", pick(1), pick(0), pick(1) + pick(0));
  return 0;
}
