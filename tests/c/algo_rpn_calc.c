/* A reverse Polish notation calculator: tokens split by hand, a fixed stack, operators
   dispatched by a switch, and error reporting through the exit status of a helper. */
#include <stdio.h>

enum { OK, UNDERFLOW, OVERFLOW, DIV_ZERO, BAD_TOKEN };

static int eval_rpn(const char *s, long *result) {
  long stack[16];
  int sp = 0;
  while (*s) {
    while (*s == ' ') s++;
    if (!*s) break;
    if ((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')) {
      int neg = *s == '-';
      if (neg) s++;
      long v = 0;
      while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
      if (sp == 16) return OVERFLOW;
      stack[sp++] = neg ? -v : v;
      continue;
    }
    char op = *s++;
    if (op == 'd') { /* dup */
      if (sp < 1) return UNDERFLOW;
      if (sp == 16) return OVERFLOW;
      stack[sp] = stack[sp - 1];
      sp++;
      continue;
    }
    if (sp < 2) return UNDERFLOW;
    long b = stack[--sp], a = stack[--sp];
    switch (op) {
    case '+': a += b; break;
    case '-': a -= b; break;
    case '*': a *= b; break;
    case '/': if (b == 0) return DIV_ZERO; a /= b; break;
    case '%': if (b == 0) return DIV_ZERO; a %= b; break;
    case '^': { long r = 1; while (b-- > 0) r *= a; a = r; break; }
    case 's': { long t = a; a = b; b = t; stack[sp++] = a; a = b; break; } /* swap */
    default: return BAD_TOKEN;
    }
    stack[sp++] = a;
  }
  if (sp != 1) return sp == 0 ? UNDERFLOW : OVERFLOW;
  *result = stack[0];
  return OK;
}

int main(void) {
  static const char *const progs[] = {"3 4 +", "5 1 2 + 4 * + 3 -", "2 10 ^", "7 -2 /", "-7 2 %",
                                      "1 2 s -", "9 d *", "1 +", "1 0 /", "1 2 3", "4 2 ?",
                                      "100 7 % 3 ^ 11 -"};
  static const char *const errors[] = {"ok", "stack underflow", "stack overflow", "division by zero",
                                       "bad token"};
  int failures = 0;
  long sum = 0;
  for (int i = 0; i < 12; i++) {
    long r = 0;
    int e = eval_rpn(progs[i], &r);
    if (e == OK) { printf("%-20s = %ld\n", progs[i], r); sum += r; }
    else { printf("%-20s : %s\n", progs[i], errors[e]); failures++; }
  }
  printf("failures %d sum %ld\n", failures, sum);
  return failures * 20 + (int)(sum % 20);
}
