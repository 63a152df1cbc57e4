/* Used by tests/test_c2ast.py: definitions in a header. What gcc emits must
   reach the module: every external definition, and the static ones the
   program uses. */
static inline int helper_twice(int x) { return 2 * x; }
static inline int helper_unused(int x) { return x + 1; }
int helper_counter = 40;
int helper_unused_global = 1;
extern int helper_declared_only(int);
#ifndef HELPER_SCALE
#define HELPER_SCALE 1
#endif
