/* void functions with early returns, functions whose every path returns, and main falling off
   its end (which returns 0 in C99 and later). */
#include <stdio.h>

static int log_count;

static void log_if_positive(int v) {
  if (v <= 0) return;
  printf("positive %d\n", v);
  log_count++;
}

static void print_until_zero(const int *v) {
  for (;; v++) {
    if (*v == 0) return;
    printf("%d ", *v);
  }
}

static int sign_of(long v) {
  if (v > 0) return 1;
  else if (v < 0) return -1;
  else return 0;
}

static int find_in_grid(int target) {
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < 5; c++)
      if (r * 5 + c == target) return r * 10 + c; /* return from inside nested loops */
  return -1;
}

static void nothing(void) {}

int main(void) {
  int values[] = {3, -1, 0, 7, -9, 12};
  for (int i = 0; i < 6; i++) log_if_positive(values[i]);
  int seq[] = {5, 4, 3, 2, 1, 0, 99};
  print_until_zero(seq);
  printf("\n");
  printf("signs %d %d %d\n", sign_of(-5), sign_of(0), sign_of(1L << 40));
  printf("grid %d %d %d\n", find_in_grid(0), find_in_grid(13), find_in_grid(25));
  nothing();
  printf("logged %d\n", log_count);
}
