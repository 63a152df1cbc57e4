/* The other side of sja.c: a longjmp some frames below its caller, a
   receiver whose longjmp comes from sja.c, and reads of the caller's frame
   through the frame-pointer chain. */
#pragma GCC diagnostic ignored "-Wframe-address"

void *b_buf[5];

__attribute__((noinline)) void b_jump(void **buf, int depth) {
  if (depth > 0) {
    b_jump(buf, depth - 1);
    return;
  }
  __builtin_longjmp(buf, 1);
}

__attribute__((noinline)) int b_receive(int (*inner)(void)) {
  volatile int v = 5;
  if (__builtin_setjmp(b_buf)) return 100 + v;
  v = 7;
  int r = inner();
  return r + 1;
}

__attribute__((noinline)) void *b_frame_of_caller(void) { return __builtin_frame_address(1); }

__attribute__((noinline)) void *b_return_of_caller(void) { return __builtin_return_address(1); }
