/* Evaluation order where C defines it: &&, ||, ?:, the comma operator, full expressions, and
   the arguments of a call being evaluated before the call. Unspecified orders are avoided. */
#include <stdio.h>

static char trail[128];
static int ntrail;

static int note(char c, int v) {
  trail[ntrail++] = c;
  trail[ntrail] = 0;
  return v;
}

static int outer(int x) { return note('O', x + 1); }

static void reset(const char *label) {
  printf("%-12s %s\n", label, trail);
  ntrail = 0;
  trail[0] = 0;
}

int main(void) {
  int v;
  v = note('a', 1) && note('b', 0) && note('c', 1);
  reset("and");
  v += note('a', 0) || note('b', 0) || note('c', 2);
  reset("or");
  v += note('a', 1) ? note('b', 2) : note('c', 3);
  reset("cond");
  v += (note('a', 1), note('b', 2), note('c', 3));
  reset("comma");
  /* The argument is evaluated before the function body runs. */
  v += outer(note('i', 5));
  reset("call");
  /* Nested calls: inner calls complete before the outer call. */
  v += outer(outer(note('x', 0)));
  reset("nested");
  /* Statements are sequenced. */
  note('1', 0);
  note('2', 0);
  note('3', 0);
  reset("statements");
  /* Loop condition before body, step after body. */
  for (int i = note('I', 0); note('C', i < 2); i = note('S', i + 1)) note('B', 0);
  reset("for");
  int k = 0;
  do note('D', 0); while (note('W', ++k < 3));
  reset("do");
  /* Assignment's right side is complete before the store; i = i + 1 is well defined. */
  int i = 5;
  i = i + 1;
  i = note('r', i) * 2;
  reset("assign");
  printf("v %d i %d\n", v, i);
  return v + i;
}
