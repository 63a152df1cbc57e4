/* expect: 4:37: error: unsupported: attribute 'weakref' */
/* weakref (a weak alias of another symbol) is refused, never dropped. */
int target(void);
static int ref(void) __attribute__((weakref("target")));
int main(void) { return ref ? 0 : 1; }
