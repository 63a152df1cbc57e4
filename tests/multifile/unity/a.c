/* Part of the unity build: nothing in main.c uses these. */
int a_calls;
const char a_name[] = "module a";
static int a_square(int x) { return x * x; }   /* used below: emitted locally */
static int a_unused(int x) { return x + 1; }   /* unused: gcc -O2 drops it */
static int a_table[4] = {3, 1, 4, 1};
int a_sum_squares(int n) {
  int s = 0;
  ++a_calls;
  for (int i = 0; i < n; ++i) s += a_square(a_table[i % 4]);
  return s;
}
