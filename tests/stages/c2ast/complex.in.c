/* _Complex lowered to its parts (stages/c2ast/complex.cpp): a complex value
   lives in a `.complex` variable of two doubles; a real operand keeps no
   imaginary part (Annex G); multiply is gcc's inline formula with
   __muldc3 only when both parts are NaN; divide calls __divdc3; the
   parameter and the result travel as `ptr byval(16,8,ss)` / `ptr
   sret(16,8,ss)` (xmm0 and xmm1). */
_Complex double g = 1.0 + 2.0i;

_Complex double f(_Complex double a, double x) {
  _Complex double t = a * g + x;
  __imag__ t = -__imag__ t;
  return t / a;
}

int same(_Complex float a, _Complex float b) { return a == b; }

/* clang reads `{x, y}` as x + yi; gcc drops y (an excess element of a
   scalar initializer): 3.0 + 0i, as gcc. */
_Complex double h = {3.0, 4.0};
