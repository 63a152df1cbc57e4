/* handbuilt_main.c - the gcc side of tests/codegen-x64/handbuilt.cpp: calls
   the hand-built functions, is called back by them, and checks every
   result, the stack alignment at each call into C, that the unwinder walks
   from a callback through pipe_args8 to main, and that callee-saved
   registers survive. Prints one line per check; exits 1 on any failure. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

long pipe_args8(long, long, long, long, long, long, long, long);
long pipe_call_many(long);
void pipe_rotate(long, long, long, long, long, long);
void pipe_slots(long, long, long);
long pipe_leaf(long);
long pipe_inc(void);
const char* pipe_message(void);
FILE* pipe_stdout(void);
long pipe_divmod(long, long, long*);
int pipe_less(int, int);
extern long pipe_counter;

static int failures;
static int unwound_through_pipe, unwound_to_main;

static void check(const char* what, long got, long want) {
  printf("%s: %ld%s\n", what, got, got == want ? "" : " WRONG");
  if (got != want) failures++;
}

static void check_alignment(const char* who) {
  /* gcc -O0 keeps a frame pointer: rbp = entry rsp - 8, which is 16-byte
     aligned when the caller's rsp was at the call. */
  if ((uintptr_t)__builtin_frame_address(0) % 16 != 0) {
    printf("%s: called with a misaligned stack\n", who);
    failures++;
  }
}

long c_note(long g) {
  check_alignment("c_note");
  void* frames[16];
  int n = backtrace(frames, 16);
  for (int i = 0; i < n; i++) {
    Dl_info info;
    if (dladdr(frames[i], &info) && info.dli_sname) {
      if (strcmp(info.dli_sname, "pipe_args8") == 0) unwound_through_pipe = 1;
      if (strcmp(info.dli_sname, "main") == 0 && unwound_through_pipe) unwound_to_main = 1;
    }
  }
  return g + 1000;
}

long c_sum8(long a, long b, long c, long d, long e, long f, long g, long h) {
  check_alignment("c_sum8");
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

void c_print6(long a, long b, long c, long d, long e, long f) {
  check_alignment("c_print6");
  printf("rotate: %ld %ld %ld %ld %ld %ld\n", a, b, c, d, e, f);
  if (a != 2 || b != 3 || c != 4 || d != 5 || e != 6 || f != 1) failures++;
}

void c_print4(long a, long b, long c, long d) {
  check_alignment("c_print4");
  printf("slots: %ld %ld %ld %ld\n", a, b, c, d);
  if (a != 20 || b != 30 || c != 10 || d != 30) failures++;
}

int main(void) {
  /* Values live across the calls: gcc keeps them in callee-saved registers. */
  volatile long seed = 5;
  long k1 = seed * 3, k2 = seed * 7, k3 = seed * 11, k4 = seed * 13, k5 = seed * 17;
  for (int round = 0; round < 2; round++) {
    check("args8", pipe_args8(1, 2, 3, 4, 5, 6, 7, 8), 1 - 2 + 3 + 7 + 8);
    check("call_many", pipe_call_many(10), 10 + 2 * 11 + 3 * 12 + 4 * 13 + 5 * 14 + 6 * 15 + 7 * 16 + 8 * 17);
    check("call_many negative", pipe_call_many(-100), -200);
    pipe_rotate(1, 2, 3, 4, 5, 6);
    pipe_slots(10, 20, 30);
    check("leaf", pipe_leaf(3), 3 * 28);
    check("callee-saved", k1 + 2 * k2 + 3 * k3 + 4 * k4 + 5 * k5, 5 * (3 + 14 + 33 + 52 + 85));
    k1 += 0; k2 += 0;
  }
  check("inc", pipe_inc(), 42);
  check("counter", pipe_counter, 42);
  check("message", strcmp(pipe_message(), "hello from pipe"), 0);
  check("stdout", pipe_stdout() == stdout, 1);
  long rem = 0;
  check("divmod", pipe_divmod(-17, 5, &rem), -3);
  check("rem", rem, -2);
  check("less", pipe_less(-1, 1), 1);
  check("not less", pipe_less(1, -1), 0);
  check("unwound through pipe_args8", unwound_through_pipe, 1);
  check("unwound to main", unwound_to_main, 1);
  printf("%s\n", failures ? "FAILED" : "all ok");
  return failures ? 1 : 0;
}
