/* A state machine written with goto: a lexer for signed integers, identifiers and operators. */
#include <stdio.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

static int lex(const char *s, long *sum_out) {
  int tokens = 0;
  long sum = 0, num = 0;
  int neg = 0, idlen = 0;
start:
  if (*s == 0) goto end;
  if (*s == ' ') { s++; goto start; }
  if (*s == '-' && is_digit(s[1])) { neg = 1; s++; num = 0; goto number; }
  if (is_digit(*s)) { neg = 0; num = 0; goto number; }
  if (is_alpha(*s)) { idlen = 0; goto ident; }
  goto op;
number:
  num = num * 10 + (*s - '0');
  s++;
  if (is_digit(*s)) goto number;
  tokens++;
  sum += neg ? -num : num;
  printf("NUM(%ld) ", neg ? -num : num);
  goto start;
ident:
  idlen++;
  s++;
  if (is_alpha(*s) || is_digit(*s)) goto ident;
  tokens++;
  printf("ID(%d) ", idlen);
  goto start;
op:
  tokens++;
  printf("OP(%c) ", *s);
  s++;
  goto start;
end:
  printf("\n");
  *sum_out = sum;
  return tokens;
}

int main(void) {
  const char *inputs[] = {
      "x1 = 42 + -7 * foo_bar",
      "  -1-2--3  ",
      "",
      "a+b+c+d 1000000 2000000",
  };
  int total = 0;
  for (int i = 0; i < 4; i++) {
    long sum;
    int n = lex(inputs[i], &sum);
    printf("tokens %d sum %ld\n", n, sum);
    total += n;
  }
  return total;
}
