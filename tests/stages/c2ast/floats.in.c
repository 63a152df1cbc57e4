/* float and double (issue 18): exact constants (0.1f is the double
   0.10000000149011612, -0.0 keeps its sign), the usual arithmetic
   conversions (fpext, sitofp, uitofp), gcc's float-to-integer sequences
   (fptosi to i32 then trunc for unsigned char; fptosi to i64 then trunc for
   unsigned int), != as fune and < as folt, truth tests as fune x, 0.0,
   !x as foeq x, 0.0, ++ as fadd 1.0, and the builtins isnan (funo),
   signbit (the sign bit of the bits), fabs and copysign. */
double scale = -0.0;
float third = 0.1f;

int classify(double x, float f, unsigned u) {
  double sum = x + f + u;
  unsigned char c = (unsigned char)sum;
  unsigned w = (unsigned)x;
  int n = 0;
  if (x != sum && f < x) n++;
  if (!x) n += 2;
  while (sum) sum = sum * 0.5 - 1;
  f++;
  n += __builtin_isnan(x) + __builtin_signbit(x);
  return n + c + (int)w + (int)__builtin_copysign(__builtin_fabs(f), scale);
}
