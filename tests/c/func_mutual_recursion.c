/* Mutual recursion: even/odd to depth 20000, Hofstadter's female and male sequences, and a
   recursive-descent style pair of functions over nested parentheses. */
#include <stdio.h>

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int male(int n);
static int female(int n) { return n == 0 ? 1 : n - male(female(n - 1)); }
static int male(int n) { return n == 0 ? 0 : n - female(male(n - 1)); }

static const char *group(const char *s, int *depth, int level);
/* list := (group)* ; group := '(' list ')' */
static const char *list(const char *s, int *depth, int level) {
  while (*s == '(') s = group(s, depth, level);
  return s;
}
static const char *group(const char *s, int *depth, int level) {
  if (level > *depth) *depth = level;
  s = list(s + 1, depth, level + 1);
  return *s == ')' ? s + 1 : s;
}

int main(void) {
  printf("is_even(20000) %d is_odd(20000) %d is_even(19999) %d\n", is_even(20000), is_odd(20000),
         is_even(19999));
  printf("F:");
  for (int i = 0; i < 20; i++) printf(" %d", female(i));
  printf("\nM:");
  for (int i = 0; i < 20; i++) printf(" %d", male(i));
  printf("\n");
  const char *inputs[] = {"()", "(())()", "((()(())))", "", "()()()(((())))"};
  int total = 0;
  for (int i = 0; i < 5; i++) {
    int depth = 0;
    const char *end = list(inputs[i], &depth, 1);
    printf("\"%s\": depth %d consumed all %d\n", inputs[i], depth, *end == 0);
    total += depth;
  }
  /* A deep nesting built at run time. */
  static char deep[4001];
  for (int i = 0; i < 2000; i++) { deep[i] = '('; deep[3999 - i] = ')'; }
  int depth = 0;
  list(deep, &depth, 1);
  printf("deep depth %d\n", depth);
  return total + female(30);
}
