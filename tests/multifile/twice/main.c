/* One file included twice with different macros, as expat's xmltok.c
   includes xmltok_ns.c: two sets of functions and data. */
#define NS(x) x
#define ALPHABET "abc"
#include "tok_ns.inc"
#undef NS
#undef ALPHABET
#define NS(x) ns_##x
#define ALPHABET "xyz"
#include "tok_ns.inc"
