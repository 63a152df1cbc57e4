/* __builtin_classify_type: gcc's type classes (void 0, integer 1, char 2,
   enumeral 3, boolean 4, pointer 5, real 8, record 12, union 13, array and
   function operands decay to pointers), a constant whose operand is never
   evaluated: the increments below must not run. */
#include <stdio.h>

enum color { RED, GREEN };
struct point { int x, y; };
union number { int i; double d; };

static int calls;
static int bump(void) { return ++calls; }

int main(void) {
  int i = 0;
  char c = 'a';
  _Bool b = 1;
  enum color e = GREEN;
  double d = 1.5;
  float f = 2.5f;
  int *p = &i;
  struct point s = {1, 2};
  union number u = {3};
  int a[4] = {0};
  printf("int %d char %d bool %d enum %d\n", __builtin_classify_type(i), __builtin_classify_type(c),
         __builtin_classify_type(b), __builtin_classify_type(e));
  printf("double %d float %d pointer %d\n", __builtin_classify_type(d), __builtin_classify_type(f),
         __builtin_classify_type(p));
  printf("struct %d union %d array %d function %d\n", __builtin_classify_type(s), __builtin_classify_type(u),
         __builtin_classify_type(a), __builtin_classify_type(bump));
  printf("unevaluated %d %d calls %d i %d\n", __builtin_classify_type(i++), __builtin_classify_type(bump()), calls,
         i);
  return 0;
}
