/* A unity build: the program is this file and the files it includes. */
#include <stdio.h>
#include "a.c"
#include "b.c"

int main_helper(int x) { return b_twice(x) + 1; }
