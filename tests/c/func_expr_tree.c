/* An expression tree built with malloc, evaluated through a per-node function pointer,
   simplified recursively (constant folding, x*1, x+0), printed, and freed. */
#include <stdio.h>
#include <stdlib.h>

struct node;
typedef long (*eval_fn)(const struct node *, long x);
struct node { eval_fn eval; char op; long value; struct node *l, *r; };

static long eval_const(const struct node *n, long x) { (void)x; return n->value; }
static long eval_var(const struct node *n, long x) { (void)n; return x; }
static long eval_add(const struct node *n, long x) { return n->l->eval(n->l, x) + n->r->eval(n->r, x); }
static long eval_mul(const struct node *n, long x) { return n->l->eval(n->l, x) * n->r->eval(n->r, x); }
static long eval_sub(const struct node *n, long x) { return n->l->eval(n->l, x) - n->r->eval(n->r, x); }

static int allocated;

static struct node *mk(char op, long v, struct node *l, struct node *r) {
  struct node *n = malloc(sizeof *n);
  allocated++;
  n->op = op; n->value = v; n->l = l; n->r = r;
  n->eval = op == 'c' ? eval_const : op == 'x' ? eval_var : op == '+' ? eval_add : op == '*' ? eval_mul : eval_sub;
  return n;
}
static struct node *num(long v) { return mk('c', v, 0, 0); }
static struct node *var(void) { return mk('x', 0, 0, 0); }

static void destroy(struct node *n) {
  if (!n) return;
  destroy(n->l);
  destroy(n->r);
  free(n);
  allocated--;
}

static struct node *simplify(struct node *n) {
  if (n->op == 'c' || n->op == 'x') return n;
  n->l = simplify(n->l);
  n->r = simplify(n->r);
  struct node *keep = 0;
  if (n->l->op == 'c' && n->r->op == 'c') {
    struct node *folded = num(n->eval(n, 0));
    destroy(n);
    return folded;
  }
  if (n->op == '*' && n->r->op == 'c' && n->r->value == 1) keep = n->l, n->l = 0;
  else if (n->op == '*' && n->l->op == 'c' && n->l->value == 1) keep = n->r, n->r = 0;
  else if ((n->op == '+' || n->op == '-') && n->r->op == 'c' && n->r->value == 0) keep = n->l, n->l = 0;
  if (keep) { destroy(n); return keep; }
  return n;
}

static void print(const struct node *n) {
  if (n->op == 'c') { printf("%ld", n->value); return; }
  if (n->op == 'x') { printf("x"); return; }
  printf("(");
  print(n->l);
  printf(" %c ", n->op);
  print(n->r);
  printf(")");
}

int main(void) {
  /* ((x * (2 - 1)) + (3 * 4)) * (x - 0) + (x * 1) */
  struct node *e = mk('+', 0,
      mk('*', 0, mk('+', 0, mk('*', 0, var(), mk('-', 0, num(2), num(1))), mk('*', 0, num(3), num(4))),
         mk('-', 0, var(), num(0))),
      mk('*', 0, var(), num(1)));
  print(e);
  printf("\nnodes %d\n", allocated);
  long before[5];
  for (long x = -2; x <= 2; x++) before[x + 2] = e->eval(e, x);
  e = simplify(e);
  print(e);
  printf("\nnodes %d\n", allocated);
  int same = 1;
  for (long x = -2; x <= 2; x++) {
    long v = e->eval(e, x);
    same &= v == before[x + 2];
    printf("f(%ld) = %ld\n", x, v);
  }
  int left = allocated;
  destroy(e);
  printf("same %d leaked %d\n", same, allocated);
  return left * 10 + same;
}
