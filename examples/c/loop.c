/* A loop: i and sum become phis at the loop header after cfg2ssa. */
#include <stdio.h>

int main(void) {
  unsigned sum = 0;
  for (unsigned i = 1; i <= 100; i++)
    sum += i * i;
  printf("sum of squares = %u\n", sum);
  return sum % 256;
}
