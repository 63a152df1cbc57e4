/* expect: 6:5: error: unsupported: label inside a statement expression used as a value */
/* Labels, cases and defaults are statements at the ast level, and a
   statement expression used as a value is an expression. */
int pick(int x) {
  return ({ int r = 2; if (x > 5) goto big; r = 1;
    big:;
    r; });
}
int main(void) { return pick(3) + pick(8) - 3; }
