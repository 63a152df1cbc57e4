/* -finstrument-functions (issue 19): built with it, every function not
   marked no_instrument_function calls __cyg_profile_func_enter(this_fn,
   call_site) on entry and __cyg_profile_func_exit on every return, after
   the returned value is computed, including functions gcc inlines.
   tests/test_native.py builds it with gcc and pipecc at every level, also
   with -finstrument-functions-exclude-function-list=skip_ and
   -finstrument-functions-exclude-file-list=excluded_helpers (the header's
   functions), and the hooks' trace must be gcc's (main's call site is not
   checked: under pipe-run main has no caller). */
#include <stdio.h>
#include "excluded_helpers.h"

#define NOCHK __attribute__((no_instrument_function))

static int depth;
static char trace[4096];
static int used;

int main(void);
const char *name_of(void *fn) NOCHK;
void __cyg_profile_func_enter(void *fn, void *site) NOCHK;
void __cyg_profile_func_exit(void *fn, void *site) NOCHK;

static int square(int x) { return x * x; }  /* inlined by gcc -O2 */
static int twice(int x) { if (x < 0) return -2 * x; return 2 * x; }
int skip_me(int x) { return x + 1; }
static int counter;
int bump(void) { return ++counter; }
int sum_to(int n) { return n == 0 ? 0 : n + sum_to(n - 1); }
struct pair { long a, b; };
struct pair make_pair(long a) { struct pair p = {a, a * 3}; return p; }
void fall_off(int *out) { *out = bump(); }
int NOCHK unchecked(int x) { return square(x) + 1; }

const char *name_of(void *fn) {
  if (fn == (void *)square) return "square";
  if (fn == (void *)twice) return "twice";
  if (fn == (void *)skip_me) return "skip_me";
  if (fn == (void *)bump) return "bump";
  if (fn == (void *)sum_to) return "sum_to";
  if (fn == (void *)make_pair) return "make_pair";
  if (fn == (void *)fall_off) return "fall_off";
  if (fn == (void *)helper_in_header) return "helper_in_header";
  if (fn == (void *)main) return "main";
  return "?";
}

void __cyg_profile_func_enter(void *fn, void *site) {
  used += snprintf(trace + used, sizeof trace - used, "%*s> %s%s\n", depth * 2, "", name_of(fn), site || fn == (void *)main ? "" : " (no site)");
  ++depth;
}

void __cyg_profile_func_exit(void *fn, void *site) {
  --depth;
  used += snprintf(trace + used, sizeof trace - used, "%*s< %s%s\n", depth * 2, "", name_of(fn), site || fn == (void *)main ? "" : " (no site)");
}

int main(void) {
  int r = 0;
  r += square(3) + twice(-4) + twice(5) + skip_me(1);
  r += sum_to(3) + helper_in_header(2) + unchecked(2);
  struct pair p = make_pair(7);
  fall_off(&r);
  printf("r=%d pair=%ld,%ld counter=%d\n", r, p.a, p.b, counter);
  fputs(trace, stdout);
  return 0;
}
