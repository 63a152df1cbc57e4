/* A unity build: the main file includes the implementation and uses none of it. */
#include "impl.c"
int main(void) { return 0; }
