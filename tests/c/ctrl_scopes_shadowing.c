/* Block scopes: shadowing in nested blocks and loops, a variable's lifetime per iteration,
   declarations inside switch cases, and a goto into a block past a declaration. */
#include <stdio.h>

static int x = 1000; /* shadowed by locals below */

static int scopes(void) {
  int x = 1;
  int sum = x;
  {
    int x = 2;
    sum += x;
    {
      int x = 3;
      sum += x;
    }
    sum += x;
  }
  sum += x;
  for (int x = 10; x < 13; x++) sum += x;
  return sum; /* 1 + 2 + 3 + 2 + 1 + 10 + 11 + 12 */
}

static int per_iteration(void) {
  int total = 0;
  for (int i = 0; i < 3; i++) {
    int fresh = i * 10; /* initialized again in every iteration */
    fresh += 5;
    total += fresh;
  }
  return total;
}

static int in_switch(int k) {
  int r = 0;
  switch (k) {
  case 0: {
    int a = 5;
    r = a * 2;
    break;
  }
  case 1: {
    int a = 7;
    int b = a + 1;
    r = a * b;
    break;
  }
  default: {
    int k2 = k * k;
    r = k2 - 1;
  }
  }
  return r;
}

static int jump_into_block(int n) {
  int r = 0;
  if (n > 0) goto inside;
  {
    int y = 100;
    r += y;
  inside:
    y = n * 2; /* y exists here even when its initializer was jumped over */
    r += y;
  }
  return r;
}

int main(void) {
  printf("scopes %d\n", scopes());
  printf("per_iteration %d\n", per_iteration());
  printf("in_switch %d %d %d\n", in_switch(0), in_switch(1), in_switch(6));
  printf("jump_into_block %d %d\n", jump_into_block(0), jump_into_block(21));
  printf("global x %d\n", x);
  {
    int x = 5;
    {
      int y = x * 2; /* the inner x */
      printf("inner y %d\n", y);
    }
  }
  int x = 3;
  x += scopes();
  printf("local x %d\n", x);
  return x;
}
