/* __builtin_frame_address(N) and __builtin_return_address(N) for N > 0:
   the saved frame-pointer chain, walked as gcc walks it. Every function on
   the chain keeps a frame pointer (each takes __builtin_frame_address(0),
   which makes gcc, clang and pipecc keep one), and none is inlined or
   tail-called (its result is used after the call). A callee's frame
   address of level 1 is its caller's of level 0, level 2 its caller's
   caller's; a callee's return address of level 1 is its caller's of level
   0. Nothing depends on the addresses' values. */
#include <stdio.h>

/* Walking up is "unsafe" only where a frame on the way has no frame pointer. */
#pragma GCC diagnostic ignored "-Wframe-address"

#define NOINLINE __attribute__((noinline))

static void *seen_frame[4], *seen_return[4];

static NOINLINE int level3(void) {
  seen_frame[3] = __builtin_frame_address(0);
  int ok = __builtin_frame_address(1) == seen_frame[2];
  ok += 2 * (__builtin_frame_address(2) == seen_frame[1]);
  ok += 4 * (__builtin_frame_address(3) == seen_frame[0]);
  ok += 8 * (__builtin_return_address(1) == seen_return[2]);
  ok += 16 * (__builtin_return_address(2) == seen_return[1]);
  return ok;
}

static NOINLINE int level2(void) {
  seen_frame[2] = __builtin_frame_address(0);
  seen_return[2] = __builtin_return_address(0);
  int r = level3();
  return r + 32 * (__builtin_frame_address(1) == seen_frame[1]);
}

static NOINLINE int level1(int depth) {
  seen_frame[1] = __builtin_frame_address(0);
  seen_return[1] = __builtin_return_address(0);
  int r = depth > 0 ? level1(depth - 1) : level2();
  seen_frame[1] = __builtin_frame_address(0);  /* back in this activation */
  seen_return[1] = __builtin_return_address(0);
  return r;
}

static NOINLINE int outer(void) {
  seen_frame[0] = __builtin_frame_address(0);
  int r = level1(0);
  return r + 64 * (__builtin_frame_address(0) == seen_frame[0]);
}

static void *frames[4];

static NOINLINE int deep(int n) {
  frames[n] = __builtin_frame_address(0);
  if (n == 0)
    return (__builtin_frame_address(1) == frames[1]) + 2 * (__builtin_frame_address(2) == frames[2]) +
           4 * (__builtin_frame_address(3) == frames[3]);
  int r = deep(n - 1);
  return r + 8 * (frames[n] == __builtin_frame_address(0));
}

int main(void) {
  int r = outer();
  printf("outer: %d\n", r);
  int sum = r;
  for (int i = 0; i < 3; i++) {
    seen_frame[0] = __builtin_frame_address(0);
    r = level1(i);
    printf("recursion %d: %d\n", i, r);
    sum += r;
  }
  r = deep(3);
  printf("deep: %d\n", r);
  return (sum + r) % 256;
}
