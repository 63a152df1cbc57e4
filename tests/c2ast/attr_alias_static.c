/* expect: 4:39: error: unsupported: attribute 'alias' on a static declaration */
/* A static alias (a local symbol) is not supported. */
int target(void) { return 0; }
static int other(void) __attribute__((alias("target")));
int main(void) { return other(); }
