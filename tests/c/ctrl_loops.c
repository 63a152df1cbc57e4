/* while, do-while and for loops: zero-trip loops, loops with complex conditions, nested loops. */
#include <stdio.h>

int main(void) {
  int i = 0, n = 0;
  /* A while loop that never runs, and a do-while that runs once. */
  while (i > 0) n += 100;
  do n += 1; while (i > 0);
  printf("n %d\n", n);
  /* Digit sum with while. */
  long v = 9876543210L;
  int ds = 0;
  while (v > 0) {
    ds += (int)(v % 10);
    v /= 10;
  }
  printf("digit sum %d\n", ds);
  /* do-while for reading digits of zero prints one digit. */
  unsigned u = 0;
  int digits = 0;
  do {
    digits++;
    u /= 10;
  } while (u);
  printf("digits of 0: %d\n", digits);
  /* for with several variables and the comma operator. */
  int lo, hi, steps = 0;
  for (lo = 0, hi = 100; lo < hi; lo += 3, hi -= 4) steps++;
  printf("lo %d hi %d steps %d\n", lo, hi, steps);
  /* for with an empty body and empty parts. */
  int k = 0;
  for (; k < 50; k += 7) {
  }
  int m = 0;
  for (;;) {
    if (++m >= 12) break;
  }
  printf("k %d m %d\n", k, m);
  /* Nested loops: multiplication table checksum and a triangle. */
  long table = 0;
  for (int a = 1; a <= 12; a++)
    for (int b = 1; b <= 12; b++) table += a * b * ((a + b) % 3);
  printf("table %ld\n", table);
  for (int r = 1; r <= 5; r++) {
    for (int c = 0; c < 5 - r; c++) putchar(' ');
    for (int c = 0; c < 2 * r - 1; c++) putchar('*');
    putchar('\n');
  }
  /* A loop whose condition has side effects. */
  int tries = 0, x = 1;
  while (x *= 3, ++tries < 10 && x < 10000) {
  }
  printf("x %d tries %d\n", x, tries);
  /* Loop variables shadowing outer ones. */
  int s = 0;
  for (int i2 = 0; i2 < 3; i2++)
    for (int i2b = i2; i2b < 3; i2b++) {
      int i2c = i2 * 10 + i2b;
      s += i2c;
    }
  printf("s %d\n", s);
  return (int)(table % 256) + s;
}
