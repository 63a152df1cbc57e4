/* __builtin_constant_p: clang's 1 for a constant expression; an operand
   with an effect, a load through a pointer, a call or an undefined extern is
   0 and is not evaluated. Run as here, without -O (gcc's -O0), every other
   answer is 0 too; with -O1 and up a harmless operand (variables,
   arithmetic, conversions, ?:) becomes the operand of constant_p for the
   optimizer (test_c2ast.py's constant_p test). */
int defined_global = 3;
extern int extern_global;
int f(void);

int probe(int x, const int *p, double d) {
  int a = __builtin_constant_p(42) + __builtin_constant_p("hi");
  int b = __builtin_constant_p(x) + __builtin_constant_p(x * 2 + 1) + __builtin_constant_p(d < 1.0 ? x : -x);
  int c = __builtin_constant_p(defined_global);
  int z = __builtin_constant_p(x++) + __builtin_constant_p(*p) + __builtin_constant_p(f()) +
          __builtin_constant_p(extern_global) + __builtin_constant_p(x / 2);
  return a + b + c + z;
}
