/* A single-header library: declarations, and the definitions when the
   includer defines LIB_IMPLEMENTATION first. */
#ifndef LIB_H
#define LIB_H
typedef struct { int count; int total; } lib_stats;
extern lib_stats lib_global_stats;
int lib_add(int x);
int lib_mean(void);
static inline int lib_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
inline int lib_half(int v) { return v / 2; }          /* C99 inline: no symbol */
extern inline int lib_third(int v) { return v / 3; }  /* extern inline: a symbol */
__attribute__((gnu_inline)) extern inline int lib_quarter(int v) { return v / 4; }  /* no symbol */
#endif

#ifdef LIB_IMPLEMENTATION
lib_stats lib_global_stats = {0, 0};
static int lib_limit = 1000;
int lib_add(int x) {
  lib_global_stats.count++;
  lib_global_stats.total += lib_clamp(x, -lib_limit, lib_limit);
  return lib_global_stats.total;
}
int lib_mean(void) { return lib_global_stats.count ? lib_global_stats.total / lib_global_stats.count : 0; }
#endif
