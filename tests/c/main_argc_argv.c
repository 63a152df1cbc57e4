/* main with argc and argv: the test runs the program without arguments, so argc is 1,
   argv[argc] is a null pointer and argv[0] is some non-empty string. */
#include <stdio.h>
#include <string.h>

static int count_args(char **argv) {
  int n = 0;
  while (argv[n]) n++;
  return n;
}

int main(int argc, char **argv) {
  printf("argc %d\n", argc);
  printf("argv[argc] is null: %d\n", argv[argc] == NULL);
  printf("argv[0] non-empty: %d\n", argv[0] != NULL && strlen(argv[0]) > 0);
  printf("counted %d\n", count_args(argv));
  int extra = 0;
  for (int i = 1; i < argc; i++) {
    printf("arg %d: %s\n", i, argv[i]);
    extra++;
  }
  /* The argument strings are modifiable. */
  if (argv[0][0]) {
    char first = argv[0][0];
    argv[0][0] = 'X';
    printf("modified ok: %d\n", argv[0][0] == 'X');
    argv[0][0] = first;
  }
  return argc * 10 + extra;
}
