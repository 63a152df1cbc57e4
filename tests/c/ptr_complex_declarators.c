/* Complex declarators: pointers to arrays, arrays of pointers to functions, functions returning
   pointers to arrays and pointers to functions, read the way the C grammar says. */
#include <stdio.h>

static int rows[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};

/* A function returning a pointer to an array of 4 ints. */
static int (*row_at(int i))[4] { return &rows[i]; }

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int negate(int x) { return -x; }

/* An array of 3 pointers to functions taking int and returning int. */
static int (*const table[3])(int) = {twice, square, negate};

/* A function taking an int and returning a pointer to a function (int) -> int. */
static int (*choose(int k))(int) { return table[k % 3]; }

/* A pointer to a function returning a pointer to an array of 4 ints. */
static int (*(*row_getter)(int))[4] = row_at;

/* A function taking a pointer to a function and an array of pointers to int. */
static int apply_all(int (*f)(int), int *const ptrs[], int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += f(*ptrs[i]);
  return s;
}

int main(void) {
  int (*r)[4] = row_at(1);
  printf("row 1: %d %d %d %d\n", (*r)[0], (*r)[1], (*r)[2], (*r)[3]);
  int (*r2)[4] = row_getter(2);
  printf("row 2 via pointer: %d, next row pointer wraps to rows+3: %d\n", (*r2)[3], (int)(r2 + 1 - rows));
  for (int k = 0; k < 5; k++) printf("choose(%d)(7) = %d\n", k, choose(k)(7));
  int a = 3, b = 4, c = 5;
  int *const ptrs[] = {&a, &b, &c};
  printf("apply_all: %d %d %d\n", apply_all(table[0], ptrs, 3), apply_all(square, ptrs, 3),
         apply_all(choose(2), ptrs, 3));
  /* A pointer to an array of pointers to char. */
  const char *words[2] = {"complex", "declarators"};
  const char *(*pw)[2] = &words;
  printf("%s %s\n", (*pw)[0], (*pw)[1]);
  /* A pointer to a pointer to a function. */
  int (*const *pf)(int) = &table[1];
  printf("pf: %d %d\n", (*pf)(9), pf[1](9));
  int sum = 0;
  for (int (*p)[4] = rows; p < rows + 3; p++) sum += (*p)[p - rows];
  printf("diagonal sum %d\n", sum);
  return sum + choose(1)(3);
}
