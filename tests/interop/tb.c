/* The other half of ta.c: thread-local variables defined here and used
   there, and ta.c's used here. */
struct tpair { int a; long b; };

__thread int tb_counter = 100;
__thread long tb_array[5] = {1, 2, 3};
__thread struct tpair tb_pair = {50, 60};
static __thread int tb_static = 7;

extern __thread int ta_counter;
extern __thread struct tpair ta_pair;
extern __thread char ta_text[16];

int *tb_static_address(void) { return &tb_static; }

long tb_touch(int by) {
  ta_counter += 1000;
  ta_pair.a += by;
  ta_text[1] = (char)('0' + by);
  tb_array[0] -= by;
  return ta_counter + ta_pair.a + tb_array[0] + tb_static;
}
