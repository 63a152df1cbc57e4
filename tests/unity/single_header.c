/* The one file of a program that instantiates a single-header library. */
#define WORDLIB_IMPLEMENTATION
#include "wordlib.h"
