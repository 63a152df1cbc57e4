/* __attribute__((cleanup(f))): f(&v) runs at every exit from v's scope, in
   reverse order of declaration: falling off the end, break, continue,
   return (after the value is computed), goto forwards and backwards, the
   scope of a for's init, nested scopes, switch. Each cleanup logs into a
   trace that the program prints. */
#include <stdio.h>
#include <string.h>

static char trace[512];
static int n_trace;

static void note(const char *s) {
  size_t len = strlen(s);
  if (n_trace + len + 1 < sizeof trace) {
    memcpy(trace + n_trace, s, len);
    n_trace += (int)len;
    trace[n_trace++] = ' ';
    trace[n_trace] = 0;
  }
}

static void flush(const char *what) {
  printf("%-14s %s\n", what, trace);
  n_trace = 0;
  trace[0] = 0;
}

static void drop(int *p) {
  char buf[24];
  sprintf(buf, "~%d", *p);
  note(buf);
  *p = -1; /* a cleanup may write the variable: return must not see it */
}

static void drop_void(void *p) {
  char buf[24];
  sprintf(buf, "~v%d", *(int *)p);
  note(buf);
}

static int drop_result(long *p) { /* its result is ignored */
  char buf[24];
  sprintf(buf, "~l%ld", *p);
  note(buf);
  return 99;
}

struct pair { int a, b; };
static void drop_pair(struct pair *p) {
  char buf[32];
  sprintf(buf, "~p%d.%d", p->a, p->b);
  note(buf);
}

static void say(int *p) { printf("bye %d\n", *p); }

#define CLEANUP(f) __attribute__((cleanup(f)))

static void fall_through(void) {
  int a CLEANUP(drop) = 1;
  int b CLEANUP(drop) = 2;
  {
    int c CLEANUP(drop) = 3;
    note("inner");
  }
  note("outer");
}

static int return_value(int x) {
  int v CLEANUP(drop) = x * 10;
  if (x > 2) {
    int w CLEANUP(drop) = x;
    return v + w; /* computed before the cleanups run */
  }
  return v;
}

static void loops(void) {
  for (int i = 0; i < 5; i++) {
    int v CLEANUP(drop) = i;
    if (i == 1) continue;
    if (i == 3) break;
    note("body");
  }
  note("|");
  int j = 0;
  while (j < 3) {
    int w CLEANUP(drop) = 100 + j;
    j++;
    do {
      int z CLEANUP(drop_void) = j;
      if (j == 2) break;
      note("do");
    } while (0);
  }
}

static void for_init_scope(void) {
  for (int i CLEANUP(drop) = 7; i < 9; i++) {
    note("it");
    if (i == 8) break; /* the init's variable lives on until the loop ends */
  }
  note("after");
}

static int in_switch(int k) {
  int total = 0;
  switch (k) {
  case 0: {
    int a CLEANUP(drop) = 50;
    total += a;
    break;
  }
  case 1: {
    int b CLEANUP(drop) = 51;
    if (b) return b + 1;
    break;
  }
  default: {
    long c CLEANUP(drop_result) = 52;
    total = (int)c;
  }
  }
  note("switch-end");
  return total;
}

static int gotos(int n) {
  int count = 0;
again:;
  {
    int v CLEANUP(drop) = count;
    count++;
    if (count < n) goto again; /* backwards, out of v's scope */
    if (count == n) goto out;  /* forwards, out of v's scope */
    note("never");
  }
out:
  note("out");
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
    if (round < 3) goto top; /* leaves v's scope: ~v runs each time */
  }
  note("done");
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
  note("se");
  return r;
}

int main(void) {
  fall_through();
  flush("fall_through");
  for (int x = 1; x <= 3; x++) {
    int r = return_value(x);
    printf("return_value(%d) = %d\n", x, r);
    flush("return_value");
  }
  loops();
  flush("loops");
  for_init_scope();
  flush("for_init");
  for (int k = 0; k < 3; k++) {
    int r = in_switch(k);
    printf("in_switch(%d) = %d\n", k, r);
    flush("in_switch");
  }
  printf("gotos = %d\n", gotos(3));
  flush("gotos");
  backwards_before_declaration();
  flush("backwards");
  struct pair p = struct_result(4);
  printf("struct_result = %d %d\n", p.a, p.b);
  flush("struct_result");
  printf("statement_expression = %d\n", statement_expression(5));
  flush("stmt_expr");
  int last CLEANUP(say) = 42; /* main's own scope: runs after the value is computed */
  return last - 42;
}
