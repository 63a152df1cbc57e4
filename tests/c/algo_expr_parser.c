/* A recursive-descent parser and evaluator for integer expressions with + - * / % unary minus,
   parentheses, comparison and variables a..z; errors reported with a position. */
#include <stdio.h>

struct parser { const char *s; int pos; int error; long vars[26]; };

static long expr(struct parser *p);

static void skip(struct parser *p) { while (p->s[p->pos] == ' ') p->pos++; }
static int peek(struct parser *p) { skip(p); return p->s[p->pos]; }

static long primary(struct parser *p) {
  int c = peek(p);
  if (c == '(') {
    p->pos++;
    long v = expr(p);
    if (peek(p) != ')') { if (!p->error) p->error = p->pos + 1; return 0; }
    p->pos++;
    return v;
  }
  if (c == '-') { p->pos++; return -primary(p); }
  if (c >= 'a' && c <= 'z') { p->pos++; return p->vars[c - 'a']; }
  if (c >= '0' && c <= '9') {
    long v = 0;
    while (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') v = v * 10 + (p->s[p->pos++] - '0');
    return v;
  }
  if (!p->error) p->error = p->pos + 1;
  return 0;
}

static long term(struct parser *p) {
  long v = primary(p);
  for (;;) {
    int c = peek(p);
    if (c != '*' && c != '/' && c != '%') return v;
    p->pos++;
    long r = primary(p);
    if (c == '*') v *= r;
    else if (r == 0) { if (!p->error) p->error = p->pos; }
    else v = c == '/' ? v / r : v % r;
  }
}

static long sum(struct parser *p) {
  long v = term(p);
  while (peek(p) == '+' || peek(p) == '-') {
    int c = p->s[p->pos++];
    long r = term(p);
    v = c == '+' ? v + r : v - r;
  }
  return v;
}

static long expr(struct parser *p) {
  long v = sum(p);
  if (peek(p) == '<') { p->pos++; return v < sum(p); }
  if (peek(p) == '>') { p->pos++; return v > sum(p); }
  return v;
}

static long eval(const char *s, int *error) {
  struct parser p = {s, 0, 0, {0}};
  for (int i = 0; i < 26; i++) p.vars[i] = i + 1;
  long v = expr(&p);
  if (!p.error && peek(&p) != 0) p.error = p.pos + 1;
  *error = p.error;
  return v;
}

int main(void) {
  const char *tests[] = {"1 + 2 * 3", "(1 + 2) * 3", "-(4 - 10) % 4", "100 / 7 / 2", "2 * -3 - -4",
                         "a + b * z", "x * x - y * y", "1 < 2", "(3 > 4) + (5 > 4) * 10",
                         "((((7))))", "1 +", "(2 * 3", "4 / (2 - 2)", "12 $ 3", "  42  "};
  int errors = 0;
  long total = 0;
  for (int i = 0; i < 15; i++) {
    int err;
    long v = eval(tests[i], &err);
    if (err) { printf("%-24s error at %d\n", tests[i], err); errors++; }
    else { printf("%-24s = %ld\n", tests[i], v); total += v; }
  }
  printf("errors %d total %ld\n", errors, total);
  return errors * 16 + (int)(total % 16);
}
