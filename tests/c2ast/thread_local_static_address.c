/* expect: 5:10: error: initializer element is not a compile-time constant */
/* The address of a thread-local variable is per thread: never a static
   initializer (clang refuses it, as gcc does). */
__thread int counter;
int *p = &counter;
