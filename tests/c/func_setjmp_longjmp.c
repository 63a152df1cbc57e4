/* setjmp and longjmp: error unwinding out of deep recursion, locals that
   are not modified between setjmp and longjmp (their values are kept, C11
   7.13.2.1), volatile locals that are (their last values are kept), many
   locals live across the setjmp while the first return's path uses every
   register, and sigsetjmp/siglongjmp. pipe-run refuses setjmp by name:
   this program runs natively only. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf on_error;
static int depth_reached;

static int parse(const char *s, int depth) {
  depth_reached = depth;
  if (*s == 0) longjmp(on_error, 100 + depth);
  if (*s == '(') return 1 + parse(s + 1, depth + 1);
  if (*s == ')') return 0;
  return parse(s + 1, depth);
}

static int checked_parse(const char *s) {
  int code = setjmp(on_error);
  if (code != 0) {
    printf("error %d at depth %d in \"%s\"\n", code, depth_reached, s);
    return -code;
  }
  return parse(s, 0);
}

static long churn(long a, long b, long c, long d, long e, long f, long g, long h) {
  for (int i = 0; i < 50; i++) {
    long t = a * 3 + b - c * d + (e ^ f) - g + h * i;
    a = b; b = c; c = d; d = e; e = f; f = g; g = h; h = t % 1000003;
  }
  return a + b + c + d + e + f + g + h;
}

static long kept_across(int rounds) {
  jmp_buf env;
  long a = rounds * 7L, b = a + 1, c = a * a, d = c - b, e = d * 3, f = e + a, g = f ^ b, h = g * 5;
  volatile int count = 0;
  volatile long sum = 0;
  if (setjmp(env) != 0) {
    /* a..h were not modified since setjmp: their values are guaranteed */
    printf("after %d jumps: sum %ld, a..h %ld %ld %ld %ld %ld %ld %ld %ld\n", count, sum, a, b, c, d, e, f, g, h);
    if (count < rounds) goto again;
    return sum + a + b + c + d + e + f + g + h;
  }
again:
  sum = sum + churn(count, a, b, c, d, e, f, g) % 1000;
  count = count + 1;
  longjmp(env, count);
}

static int vfork_free_retry(void) {
  sigjmp_buf env;
  volatile int tries = 0;
  int limit = 3;
  if (sigsetjmp(env, 0) == 0 || tries < limit) {
    tries = tries + 1;
    if (tries <= limit) siglongjmp(env, tries);
  }
  return tries * 10 + limit;
}

int main(void) {
  printf("%d\n", checked_parse("(a(b)c)"));
  printf("%d\n", checked_parse("((a(b"));
  printf("%d\n", checked_parse("(((((x"));
  printf("kept_across: %ld\n", kept_across(3));
  printf("retry: %d\n", vfork_free_retry());
  return 0;
}
