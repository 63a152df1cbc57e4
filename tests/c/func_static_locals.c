/* Static local variables: persistence across calls, per-function separation, initializers,
   static arrays, and returning pointers to static storage. */
#include <stdio.h>

static int counter(void) {
  static int n = 100;
  return n++;
}

static int other_counter(void) {
  static int n; /* zero, separate from counter's n */
  return n += 5;
}

static const char *ordinal(int k) {
  static char buf[16];
  const char *suffix = "th";
  if (k % 100 < 11 || k % 100 > 13) {
    if (k % 10 == 1) suffix = "st";
    else if (k % 10 == 2) suffix = "nd";
    else if (k % 10 == 3) suffix = "rd";
  }
  sprintf(buf, "%d%s", k, suffix);
  return buf;
}

static long running_average(long sample) {
  static long window[4];
  static int pos, filled;
  window[pos] = sample;
  pos = (pos + 1) % 4;
  if (filled < 4) filled++;
  long s = 0;
  for (int i = 0; i < filled; i++) s += window[i];
  return s / filled;
}

static int *get_table(void) {
  static int table[5] = {1, 1, 2, 3, 5};
  return table;
}

int main(void) {
  for (int i = 0; i < 3; i++) printf("counter %d other %d\n", counter(), other_counter());
  int ks[] = {1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 1002};
  for (int i = 0; i < 12; i++) printf("%s ", ordinal(ks[i]));
  printf("\n");
  long samples[] = {10, 20, 30, 40, 50, 60, 70};
  for (int i = 0; i < 7; i++) printf("avg %ld\n", running_average(samples[i]));
  int *t = get_table();
  t[4] = 50;
  int *t2 = get_table();
  printf("same table %d value %d\n", t == t2, t2[4]);
  /* A static local in a loop body keeps its value between iterations. */
  int last = 0;
  for (int i = 0; i < 5; i++) {
    static int acc = 1;
    acc *= 3;
    last = acc;
  }
  printf("last %d\n", last);
  return counter() + other_counter();
}
