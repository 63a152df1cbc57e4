/* prog_treeinterp.c - a small interpreter: an expression tree of a
   little language (variables, arithmetic, comparisons, if, while,
   sequences) built in memory and evaluated recursively by a switch over
   node kinds. The program computes primes below n by trial division. */
#include <stdlib.h>
#include "common.h"

enum kind { CONST, VAR, ASSIGN, ADD, SUB, MUL, MOD, LT, LE, EQ, AND, IF, WHILE, SEQ };
struct node { enum kind kind; long value; struct node *a, *b, *c; };
static long vars[8];

static struct node *mk(enum kind k, long v, struct node *a, struct node *b, struct node *c) {
  struct node *n = malloc(sizeof *n);
  n->kind = k; n->value = v; n->a = a; n->b = b; n->c = c;
  return n;
}
#define K(v) mk(CONST, v, 0, 0, 0)
#define V(i) mk(VAR, i, 0, 0, 0)
#define OP(k, x, y) mk(k, 0, x, y, 0)
#define SET(i, x) mk(ASSIGN, i, x, 0, 0)

static long eval(const struct node *n) {
  switch (n->kind) {
    case CONST: return n->value;
    case VAR: return vars[n->value];
    case ASSIGN: return vars[n->value] = eval(n->a);
    case ADD: return eval(n->a) + eval(n->b);
    case SUB: return eval(n->a) - eval(n->b);
    case MUL: return eval(n->a) * eval(n->b);
    case MOD: return eval(n->a) % eval(n->b);
    case LT: return eval(n->a) < eval(n->b);
    case LE: return eval(n->a) <= eval(n->b);
    case EQ: return eval(n->a) == eval(n->b);
    case AND: return eval(n->a) && eval(n->b);
    case IF: return eval(n->a) ? eval(n->b) : n->c ? eval(n->c) : 0;
    case WHILE: { long r = 0; while (eval(n->a)) r = eval(n->b); return r; }
    case SEQ: eval(n->a); return eval(n->b);
  }
  return 0;
}

int main(int argc, char **argv) {
  long n = kernel_scale(argc, argv, 200000);
  /* v0 = candidate, v1 = divisor, v2 = is prime, v3 = count, v4 = sum, v5 = n */
  struct node *inner = mk(WHILE, 0, OP(AND, OP(LE, OP(MUL, V(1), V(1)), V(0)), V(2)),
                          mk(SEQ, 0, mk(IF, 0, OP(EQ, OP(MOD, V(0), V(1)), K(0)), SET(2, K(0)), 0),
                             SET(1, OP(ADD, V(1), K(1))), 0), 0);
  struct node *body = mk(SEQ, 0, SET(1, K(2)), mk(SEQ, 0, SET(2, K(1)),
                         mk(SEQ, 0, inner, mk(SEQ, 0, mk(IF, 0, V(2),
                            mk(SEQ, 0, SET(3, OP(ADD, V(3), K(1))), SET(4, OP(ADD, V(4), V(0))), 0), 0),
                            SET(0, OP(ADD, V(0), K(1))), 0), 0), 0), 0);
  struct node *program = mk(SEQ, 0, SET(0, K(2)), mk(WHILE, 0, OP(LT, V(0), V(5)), body, 0), 0);
  vars[5] = n;
  eval(program);
  printf("primes below %ld: %ld, sum %ld\n", n, vars[3], vars[4]);
  return 0;
}
