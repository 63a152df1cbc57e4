/* Interoperation of gcc's __builtin_setjmp/__builtin_longjmp and of the
   frame-pointer chain (with sjb.c; tests/test_native.py builds each side
   with gcc and with pipecc and runs every combination): the 5-word buffer
   (frame pointer, resume address, stack pointer) written by one compiler's
   setjmp is read by the other's longjmp, from one to three frames below
   the receiver, both ways; __builtin_frame_address(1) and
   __builtin_return_address(1) in sjb.c read this side's frame, whose
   function keeps rbp (it takes __builtin_frame_address(0)). */
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wframe-address"

void *a_buf[5];
extern void *b_buf[5];
void b_jump(void **buf, int depth);
int b_receive(int (*inner)(void));
void *b_frame_of_caller(void);
void *b_return_of_caller(void);

static __attribute__((noinline)) void a_jump(void) { __builtin_longjmp(b_buf, 1); }

static __attribute__((noinline)) int a_then_jump(void) {
  a_jump();
  return 0;
}

static __attribute__((noinline)) int receive(int depth) {
  volatile int v = 1;
  int fixed = 30 + depth;
  if (__builtin_setjmp(a_buf)) return v * 100 + fixed;
  v = 2;
  b_jump(a_buf, depth);
  return -1;
}

static __attribute__((noinline)) int chain(void) {
  void *mine = __builtin_frame_address(0);
  void *back = __builtin_return_address(0);
  int ok = b_frame_of_caller() == mine;
  ok += 2 * (b_return_of_caller() == back);
  return ok;
}

int main(void) {
  for (int depth = 0; depth < 3; depth++) printf("a receives from b, %d down: %d\n", depth, receive(depth));
  printf("b receives from a: %d\n", b_receive(a_then_jump));
  printf("chain: %d\n", chain());
  printf("chain again: %d\n", chain());
  return 0;
}
