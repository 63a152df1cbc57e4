/* goto and labels: forward jumps for error handling, backward jumps as loops, jumps out of
   nested loops, a label at the end of a block. */
#include <stdio.h>
#include <stdlib.h>

static int process(int n, int fail_at) {
  int status = -1;
  int *a = malloc(sizeof(int) * 4);
  if (!a) goto out;
  int *b = malloc(sizeof(int) * 4);
  if (!b) goto free_a;
  if (fail_at == 1) goto free_b;
  for (int i = 0; i < 4; i++) { a[i] = n + i; b[i] = a[i] * 2; }
  if (fail_at == 2) goto free_b;
  status = a[3] + b[3];
free_b:
  free(b);
free_a:
  free(a);
out:
  return status;
}

static int find_pair(int target, int *ri, int *rj) {
  for (int i = 1; i < 20; i++)
    for (int j = i; j < 20; j++)
      if (i * j == target && i + j == 13) {
        *ri = i;
        *rj = j;
        goto found;
      }
  return 0;
found:
  return 1;
}

int main(void) {
  printf("process: %d %d %d\n", process(5, 0), process(5, 1), process(5, 2));
  /* A backward goto loop computing a factorial. */
  long fact = 1;
  int k = 1;
again:
  fact *= k;
  if (++k <= 15) goto again;
  printf("15! = %ld\n", fact);
  int i = 0, j = 0;
  int ok = find_pair(40, &i, &j);
  printf("pair %d: %d*%d\n", ok, i, j);
  ok = find_pair(41, &i, &j);
  printf("pair 41 found %d\n", ok);
  /* Skipping over statements. */
  int x = 1;
  goto skip;
  x = 100;
skip:
  x += 1;
  printf("x %d\n", x);
  /* A label at the end of a compound statement needs a statement after it. */
  int count = 0;
  for (int n = 0; n < 10; n++) {
    if (n % 3 == 0) goto next;
    count += n;
  next:;
  }
  printf("count %d\n", count);
  return (int)(fact % 256) + count;
}
