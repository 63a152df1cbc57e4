#include <stdio.h>
extern int a_calls, b_counter, *b_pointer;
extern const char a_name[];
int a_sum_squares(int n);
int b_twice(int x);
void b_bump(void);
int main_helper(int x);
int main(void) {
  printf("%s %d\n", a_name, a_sum_squares(6));
  printf("calls %d twice %d helper %d\n", a_calls, b_twice(21), main_helper(4));
  b_bump();
  printf("counter %d %d\n", b_counter, *b_pointer);
  return 0;
}
