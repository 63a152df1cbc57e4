#include <stdio.h>
/* lib.h's declarations, without its inline definitions (those would be
   a second definition of lib_half and lib_quarter here). */
typedef struct { int count; int total; } lib_stats;
extern lib_stats lib_global_stats;
int lib_add(int x);
int lib_mean(void);
int lib_third(int v);
int use_inline(int v);
int lib_half(int v) { return v / 2; }      /* the external definitions of the */
int lib_quarter(int v) { return v / 4; }   /* header's inline-only functions */
int main(void) {
  lib_add(5);
  lib_add(5000);
  lib_add(-7);
  printf("mean %d count %d total %d\n", lib_mean(), lib_global_stats.count, lib_global_stats.total);
  printf("inline %d third %d\n", use_inline(120), lib_third(99));
  return 0;
}
