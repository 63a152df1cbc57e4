/* __builtin_frame_address(0) and __builtin_return_address(0): a frame's
   address lies between its caller's locals and its callee's (either way
   the stack grows), is the same for a whole activation, and a function's
   return address is the same for every call from one call site and
   differs between two call sites. Nothing here depends on the addresses'
   values, which differ between gcc's build and ours. */
#include <stdio.h>

static int between(const char *outer, const char *frame) __attribute__((noinline));
static int middle(const char *outer) __attribute__((noinline));
static void *where(void) __attribute__((noinline));

static int between(const char *outer, const char *frame) {
  char inner = 0;
  if (outer > &inner) return outer >= frame && frame >= &inner;
  return outer <= frame && frame <= &inner;
}

static int middle(const char *outer) {
  char *frame = __builtin_frame_address(0);
  char *again = __builtin_frame_address(0);
  return (between(outer, frame) != 0) + 2 * (frame == again);
}

static void *where(void) { return __builtin_return_address(0); }

static void *call_site_a(void) __attribute__((noinline));
static void *volatile last_site;
static void *call_site_a(void) {
  void *r = where();
  last_site = r;  /* after the call: not a sibling call, whose jump would give where() main's return address */
  return r;
}

int main(void) {
  char outer = 0;
  printf("frame between caller and callee, stable: %d\n", middle(&outer));
  void *a1 = call_site_a(), *a2 = call_site_a();
  void *b = where();
  printf("same site %d, other site %d, non-null %d\n", a1 == a2, a1 != b, a1 != 0);
  return 0;
}
