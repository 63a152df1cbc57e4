/* goto into the middle of loops: entering a loop body from outside, skipping the first test,
   and jumping between two loops. */
#include <stdio.h>

/* Print numbers separated by commas: jump into the loop past the separator the first time. */
static void print_list(const int *v, int n) {
  int i = 0;
  if (n == 0) goto done;
  goto first;
  while (i < n) {
    printf(", ");
  first:
    printf("%d", v[i]);
    i++;
  }
done:
  printf("\n");
}

/* Enter a do-while body in the middle. */
static int half_start(int n) {
  int acc = 0, i = 0;
  goto middle;
  do {
    acc += 100;
  middle:
    acc += i;
    i++;
  } while (i < n);
  return acc;
}

/* Jump into a for loop body: the init is skipped, so the variable is set before the jump. */
static int into_for(int start) {
  int i = start, sum = 0;
  goto body;
  for (i = 0; i < 10; i++) {
  body:
    sum += i * i;
  }
  return sum;
}

/* Ping-pong between two loops. */
static int ping_pong(void) {
  int a = 0, b = 0, rounds = 0;
loop_a:
  while (a < 50) {
    a += 7;
    if (a % 2) goto loop_b;
  }
  return a * 1000 + b * 10 + rounds;
loop_b:
  while (b < 50) {
    b += 5;
    rounds++;
    if (b % 3 == 0) goto loop_a;
  }
  goto loop_a;
}

int main(void) {
  int v[] = {3, 1, 4, 1, 5, 9, 2, 6};
  print_list(v, 8);
  print_list(v, 1);
  print_list(v, 0);
  printf("half_start %d %d %d\n", half_start(1), half_start(3), half_start(5));
  printf("into_for %d %d %d\n", into_for(0), into_for(7), into_for(12));
  int pp = ping_pong();
  printf("ping_pong %d\n", pp);
  return (half_start(5) + into_for(7) + pp) % 256;
}
