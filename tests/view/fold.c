/* pipe-view's browser test: a loop, a call, and a constant sonopt folds. */
#include <stdio.h>

static int square(int x) { return x * x; }

int main(void) {
  int total = 0;
  for (int i = 0; i < 10; i++)
    total += square(i) + 2 * 3;
  printf("total = %d\n", total);
  return total % 7;
}
