/* Local arrays with initializers: full, partial (rest zero), sized by the initializer, strings. */
#include <stdio.h>

static int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

int main(void) {
  int full[5] = {1, 2, 3, 4, 5};
  int partial[8] = {9, 8};
  int zero[6] = {0};
  int sized[] = {10, 20, 30, 40};
  char word[] = "init";
  char padded[10] = "ab";
  unsigned char bytes[4] = {255, 256 - 1, 0x80};
  long longs[3] = {-1, 5000000000L};
  short grid[2][3] = {{1, 2}, {4}};
  int i;

  printf("full %d partial %d zero %d sized %d (%d elems)\n", sum(full, 5), sum(partial, 8),
         sum(zero, 6), sum(sized, 4), (int)(sizeof sized / sizeof sized[0]));
  for (i = 0; i < 8; i++) printf("%d ", partial[i]);
  printf("\n");
  printf("word %s sizeof %d\n", word, (int)sizeof word);
  for (i = 0; i < 10; i++) printf("%d ", padded[i]);
  printf("\n");
  printf("bytes %u %u %u %u\n", bytes[0], bytes[1], bytes[2], bytes[3]);
  printf("longs %ld %ld %ld\n", longs[0], longs[1], longs[2]);
  for (i = 0; i < 6; i++) printf("%d ", grid[i / 3][i % 3]);
  printf("\n");
  /* Initializers evaluated at run time, in a loop: fresh each iteration. */
  int total = 0;
  for (int round = 0; round < 4; round++) {
    int local[4] = {round, round * 2};
    local[3] += round;
    total += sum(local, 4);
    printf("round %d: %d %d %d %d\n", round, local[0], local[1], local[2], local[3]);
  }
  /* Initializer elements that are expressions. */
  int x = 7;
  int exprs[4] = {x, x * x, full[2] + sized[1], (int)sizeof(x)};
  printf("exprs %d %d %d %d\n", exprs[0], exprs[1], exprs[2], exprs[3]);
  /* Nested braces and a char array from a list. */
  char letters[6] = {'h', 'e', 'l', 'l', 'o'};
  printf("%s\n", letters);
  return total + sum(exprs, 4);
}
