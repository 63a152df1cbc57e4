/* The comma operator: sequencing with a value, in for loops, in conditions and in arguments
   (parenthesized), and its type being the right operand's. */
#include <stdio.h>

static int counter;
static int next(void) { return ++counter; }

int main(void) {
  int a, b, c;
  a = (b = 3, c = 4, b * c);
  printf("a %d b %d c %d\n", a, b, c);
  /* Left operands are evaluated (for their side effects) first. */
  int x = (next(), next(), next());
  printf("x %d counter %d\n", x, counter);
  /* Two loop variables moving in opposite directions. */
  char s[] = "commaoperator";
  int i, j;
  for (i = 0, j = (int)sizeof s - 2; i < j; i++, j--) {
    char t = s[i];
    s[i] = s[j];
    s[j] = t;
  }
  printf("%s\n", s);
  /* Comma in a while condition: the last operand decides. */
  int n = 0, steps = 0;
  while (steps++, n += 3, n < 20) {
  }
  printf("n %d steps %d\n", n, steps);
  /* A parenthesized comma expression as one function argument. */
  printf("arg %d\n", (counter += 10, counter * 2));
  /* The type is the right operand's type. */
  char ch = 'c';
  long big = 0;
  printf("sizes %d %d\n", (int)sizeof(big++, ch), (int)sizeof(ch++, big));
  /* Comma in an if condition. */
  int flag;
  if (flag = 0, flag + 1) printf("taken\n");
  /* Comma inside array index and in a return-like expression. */
  int arr[5] = {10, 20, 30, 40, 50};
  int idx = 0;
  int val = arr[(idx += 2, idx + 1)];
  printf("val %d idx %d\n", val, idx);
  int sum = 0;
  for (int k = 0, m = 10; k < m; k += 2, m -= 1) sum += k * m;
  printf("sum %d\n", sum);
  return (a + x + n + val + sum) % 256;
}
