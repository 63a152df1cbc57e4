/* && and || evaluate left to right and stop early: the side effects show which operands ran. */
#include <stdio.h>

static int log_buf[64];
static int nlog;

static int t(int id) { log_buf[nlog++] = id; return 1; }
static int f(int id) { log_buf[nlog++] = -id; return 0; }

static void dump(const char *what, int value) {
  printf("%-22s = %d  ran:", what, value);
  for (int i = 0; i < nlog; i++) printf(" %d", log_buf[i]);
  printf("\n");
  nlog = 0;
}

int main(void) {
  int v;
  v = t(1) && t(2); dump("t1 && t2", v);
  v = f(1) && t(2); dump("f1 && t2", v);
  v = t(1) || t(2); dump("t1 || t2", v);
  v = f(1) || t(2); dump("f1 || t2", v);
  v = f(1) || f(2) || t(3) || t(4); dump("f1||f2||t3||t4", v);
  v = t(1) && (f(2) || t(3)) && t(4); dump("t1&&(f2||t3)&&t4", v);
  v = (t(1) && f(2)) || (t(3) && t(4)); dump("(t1&&f2)||(t3&&t4)", v);
  v = !(f(1) && t(2)); dump("!(f1&&t2)", v);
  /* The classic guard: no null dereference. */
  int *p = 0;
  int x = 5;
  int safe = p != 0 && *p > 3;
  printf("safe %d\n", safe);
  p = &x;
  safe = p != 0 && *p > 3;
  printf("safe %d\n", safe);
  /* Guarding a division. */
  int d = 0, n = 10;
  int ok = d != 0 && n / d > 1;
  printf("ok %d\n", ok);
  /* Side effects in the operands: i is incremented only when evaluated. */
  int i = 0;
  int r = (i++ > 0) && (i++ > 0);
  printf("r %d i %d\n", r, i);
  r = (i++ > 0) || (i++ > 0);
  printf("r %d i %d\n", r, i);
  /* The result is an int 0 or 1, whatever the operand values. */
  long big = 1L << 40;
  int seven = 7, zero = 0, minus5 = -5;
  printf("values %d %d %d\n", big && seven, zero || minus5, (big || zero) + (seven && minus5));
  /* Used in loop conditions. */
  int a[] = {4, 8, 15, 16, 23, 42};
  int k = 0;
  while (k < 6 && a[k] % 2 == 0) k++;
  printf("first odd at %d\n", k);
  return i * 10 + k;
}
