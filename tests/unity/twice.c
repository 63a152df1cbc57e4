/* One file included twice under different names (expat's xmltok_ns.c). */
#define NS(x) small_##x
#define NS_SCALE 2
#include "twice_ns.inc"
#undef NS
#undef NS_SCALE
#define NS(x) big_##x
#define NS_SCALE 100
#include "twice_ns.inc"
int use_small(void) { return small_apply(3); }
