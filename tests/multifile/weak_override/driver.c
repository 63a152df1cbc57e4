#include <stdio.h>
int hook(int x) { return x + 100; }
int weak_data = 5;
int provided(void) { return 77; }
int run_hook(int x);
int call_provided(void);
int public_name(int x);
int main(void) {
  printf("%d %d %d\n", run_hook(1), call_provided(), public_name(4));
  return 0;
}
