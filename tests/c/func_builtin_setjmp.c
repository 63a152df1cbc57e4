/* gcc's __builtin_setjmp and __builtin_longjmp (a 5-word buffer: frame
   pointer, resume address, stack pointer): the longjmp from a direct
   callee, from a callee two frames down, from a function reached through
   a pointer, and from the setjmp's own function; the stack pointer the
   receiver gets back (alloca after it continues where it did), locals of
   the receiving function (volatile where they change after the setjmp, as
   C requires of setjmp's callers), nested buffers (an inner receiver
   inside an outer one), and a setjmp in a loop. Runs natively only: the
   interpreter refuses both builtins by name. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static void *outer_buf[5], *inner_buf[5];
static int trace;

static NOINLINE void jump_outer(void) { __builtin_longjmp(outer_buf, 1); }
static NOINLINE void jump_inner(int n) {
  trace = trace * 10 + n;
  __builtin_longjmp(inner_buf, 1);
}
static NOINLINE void two_down(int n) {
  if (n > 0) jump_inner(n);
  trace = -1;
}
static void (*through_pointer)(void) = jump_outer;

static NOINLINE int receive(int how) {
  volatile int steps = 0;
  int fixed = 40 + how;
  if (__builtin_setjmp(outer_buf)) return steps * 100 + fixed;
  steps = 1;
  if (how == 0) jump_outer();
  steps = 2;
  if (how == 1) through_pointer();
  steps = 3;
  if (how == 2) __builtin_longjmp(outer_buf, 1);
  return -how;
}

static NOINLINE int nested(int n) {
  volatile int inner_hits = 0;
  if (__builtin_setjmp(outer_buf)) return inner_hits * 1000 + trace;
  for (volatile int i = 1; i <= n; i++) {
    if (__builtin_setjmp(inner_buf) == 0) {
      two_down(i);
      continue;
    }
    inner_hits++;
  }
  jump_outer();
  return -1;
}

static NOINLINE long add6(long a, long b, long c, long d, long e, long f) { return a + b + c + d + e + f; }

/* Memory alloca'd before the setjmp survives, the stack takes more after
   it, and calls work: the stack pointer came back. */
static NOINLINE long stack_back(void) {
  char *volatile a = __builtin_alloca(16);
  a[0] = 5;
  if (!__builtin_setjmp(outer_buf)) jump_outer();
  char *c = __builtin_alloca(16);
  c[0] = 7;
  return add6(a[0], c[0], 1, 2, 3, 4) + a[0] * c[0];
}

int main(void) {
  int sum = 0;
  for (int how = 0; how < 4; how++) {
    int r = receive(how);
    printf("receive(%d) = %d\n", how, r);
    sum += r;
  }
  trace = 0;
  int r = nested(4);
  printf("nested = %d\n", r);
  long s = stack_back();
  printf("stack = %ld\n", s);
  return (sum + r + (int)s) % 256;
}
