/* printf-family calls sonopt's printf-fold rewrites as gcc does
   (stages/sonopt/printf_fold.cpp): printf of strings with and without a
   newline, of one character, of nothing, "%s\n", "%c", "%s" of a literal;
   fprintf and fputs to stdout and stderr; sprintf of a literal and of "%s";
   and calls that must stay (results used, other conversions). */
#include <stdio.h>
#include <string.h>

static const char *word(int i) { return i % 2 ? "odd" : "even"; }

int main(void) {
  char buf[32];
  printf("hello\n");
  printf("x");
  printf("");
  printf("\n");
  printf("%s\n", word(3));
  printf("%c", 'y');
  printf("%c", '\n');
  printf("%s", "literal\n");
  printf("%s", "");
  printf("no newline ");
  int n = printf("counted\n");
  printf("%d\n", n);
  fprintf(stdout, "to stdout\n");
  fprintf(stdout, "%s", word(4));
  fprintf(stdout, "%c", '!');
  fprintf(stdout, "");
  fputs("\n", stdout);
  fputs("", stdout);
  fputs("fputs line\n", stdout);
  fprintf(stderr, "to stderr\n");
  fputs("e", stderr);
  fputs("\n", stderr);
  int m = sprintf(buf, "abc");
  printf("%d %s\n", m, buf);
  m = sprintf(buf, "%s", "longer literal");
  printf("%d %s\n", m, buf);
  sprintf(buf + 3, "%s", word(1));
  printf("%s %zu\n", buf, strlen(buf));
  printf("%s %s\n", strchr("hello", 'l'), strrchr("hello", 'l'));
  strcpy(buf, "copied");
  printf("%s\n", buf);
  return 0;
}
