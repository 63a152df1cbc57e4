/* The program tests/test_debug_info.py runs under gdb: every kind of type
   the debug section describes, parameters of each kind, a loop scope. */
#include <stdio.h>

typedef unsigned long ulong;
enum color { RED, GREEN = 5, BLUE };
struct point { int x; int y; };
union num { int i; char c[4]; };
struct node { struct node *next; const char *name; volatile int hits; };
typedef int (*binop)(int, int);

int counter = 7;
static const char greeting[] = "hi";

static int add(int a, int b) { return a + b; }

int work(int n, struct point *p, struct point q) {
  int arr[4] = {1, 2, 3, 4};
  enum color c = GREEN;
  union num u;
  u.i = 0x41424344;
  binop op = add;
  ulong big = 123456789UL;
  int total = 0;
  for (int i = 0; i < n; i++) {
    int sq = i * i;
    total += sq;
  }
  total = op(total, p->x + q.y + arr[2] + (int)c + (int)(big % 10) + u.c[0]);
  return total;
}

__attribute__((noinline)) int scale(int v, int k) {
  int doubled = v * 2;
  static int calls;
  calls++;
  return doubled * k + calls;
}

int main(void) {
  struct point pt = {10, 20};
  struct node nd = {0, "first", 3};
  int r = work(3, &pt, pt);
  r += scale(r, 3);
  printf("%d %s %d %s\n", r, nd.name, nd.hits + counter, greeting);
  return 0;
}
