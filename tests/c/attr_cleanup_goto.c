/* __attribute__((cleanup(f))) left by goto, forwards and backwards (also
   back to before the declaration, which leaves the scope), a goto that
   stays inside the scope (no cleanup), a struct result copied out before
   the cleanup runs, a statement expression's scope, and main's own scope,
   whose cleanup runs after main's return value is computed. */
#include <stdio.h>

static void drop(int *p) {
  printf("~%d ", *p);
  *p = -1;
}
struct pair { int a, b; };
static void drop_pair(struct pair *p) { printf("~p%d.%d ", p->a, p->b); }
static void say(int *p) { printf("bye %d\n", *p); }

#define CLEANUP(f) __attribute__((cleanup(f), unused)) /* clang warns of unused ones */

static int gotos(int n) {
  int count = 0;
again:;
  {
    int v CLEANUP(drop) = count;
    count++;
    if (count < n) goto again; /* backwards, out of v's scope */
    if (count == n) goto out;  /* forwards, out of v's scope */
    printf("never ");
  }
out:
  printf("out ");
  {
    int w CLEANUP(drop) = 200;
  back:
    if (w < 202) {
      w++;
      goto back; /* stays inside w's scope: no cleanup */
    }
  }
  return count;
}

static void backwards_before_declaration(void) {
  int round = 0;
  {
  top:;
    int v CLEANUP(drop) = 300 + round;
    round++;
    if (round < 3) goto top; /* leaves v's scope: its cleanup runs each time */
  }
  printf("done ");
}

static struct pair struct_result(int x) {
  struct pair p CLEANUP(drop_pair) = {x, x + 1};
  struct pair q = p;
  q.b += 10;
  return q;
}

static int statement_expression(int x) {
  int r = 0;
  ({
    int t CLEANUP(drop) = x + 1;
    r = t * 2;
  });
  printf("se ");
  return r;
}

int main(void) {
  printf("= %d\n", gotos(3));
  backwards_before_declaration();
  printf("\n");
  struct pair p = struct_result(4);
  printf("= %d %d\n", p.a, p.b);
  printf("= %d\n", statement_expression(5));
  int last CLEANUP(say) = 42;
  return last - 42;
}
