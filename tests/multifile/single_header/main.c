/* Includes the single-header library's implementation; uses none of it. */
#define LIB_IMPLEMENTATION
#include "lib.h"

int use_inline(int v) { return lib_half(v) + lib_third(v) + lib_quarter(v); }
