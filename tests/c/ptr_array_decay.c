/* Arrays decaying to pointers, pointers to arrays, and array parameters. */
#include <stdio.h>

static int sum_flat(const int *p, int n) {
  int s = 0;
  while (n-- > 0) s += *p++;
  return s;
}

static int sum_rows(int (*rows)[4], int nrows) {
  int s = 0;
  for (int r = 0; r < nrows; r++)
    for (int c = 0; c < 4; c++) s += rows[r][c] * (c + 1);
  return s;
}

static int param_size(int arr[10]) { return (int)sizeof(&arr[0]); }

static void fill(int arr[], int n, int v) {
  for (int i = 0; i < n; i++) arr[i] = v + i;
}

int main(void) {
  int m[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
  int flat[10];
  fill(flat, 10, 100);
  printf("sum_flat %d\n", sum_flat(flat, 10));
  printf("sum_rows %d\n", sum_rows(m, 3));
  printf("sum_rows(m+1) %d\n", sum_rows(m + 1, 2));
  printf("whole matrix flat %d\n", sum_flat(&m[0][0], 12));
  printf("param_size %d sizeof flat %d\n", param_size(flat), (int)sizeof flat);
  int (*prow)[4] = m;
  prow++;
  printf("(*prow)[2] %d prow[1][3] %d\n", (*prow)[2], prow[1][3]);
  int (*whole)[3][4] = &m;
  printf("(*whole)[2][1] %d sizeof *whole %d\n", (*whole)[2][1], (int)sizeof *whole);
  /* Address of an array vs address of its first element: same place, different types. */
  printf("same address %d\n", (void *)&flat == (void *)flat);
  printf("step of &flat+1 in bytes %d\n", (int)((char *)(&flat + 1) - (char *)&flat));
  /* A string literal decays to char pointer. */
  const char *s = "decay";
  printf("%c%c %d\n", s[0], *(s + 4), (int)sizeof "decay");
  char word[] = "array";
  char *w = word;
  w[0] = 'A';
  printf("%s %d\n", word, (int)sizeof word);
  return sum_rows(m, 3) % 256;
}
