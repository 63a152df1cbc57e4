/* default placed in the middle or first, falling through into later cases; case labels on
   statements nested inside blocks and loops of the switch body. */
#include <stdio.h>

static int f(int x) {
  int r = 0;
  switch (x) {
  case 1:
    r += 1;
  default:
    r += 10;
  case 2:
    r += 100;
    break;
  case 3:
    r += 1000;
  }
  return r;
}

static int g(int x) {
  int r = 0;
  switch (x) {
  default:
    r = -1;
    break;
  case 5:
    r = 5;
  case 6:
    r *= 2;
  }
  return r;
}

/* Case labels inside an if and a loop within the switch body (legal C). */
static int h(int x) {
  int r = 0, i = 0;
  switch (x) {
  case 0:
    if (r == 0) {
  case 1:
      r += 7;
    }
    break;
  case 2:
    for (i = 0; i < 3; i++) {
      r += i;
  case 3:
      r += 10;
    }
    break;
  default:
    r = 99;
  }
  return r;
}

int main(void) {
  int total = 0;
  for (int x = 0; x <= 4; x++) {
    printf("f(%d)=%d g(%d)=%d h(%d)=%d\n", x, f(x), x + 3, g(x + 3), x, h(x));
    total += f(x) + g(x + 3) + h(x);
  }
  printf("total %d\n", total);
  return total % 256;
}
