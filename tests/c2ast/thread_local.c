/* expect: 5:25: error: unsupported: thread-local variable 'counter' */
/* Thread-local storage is not supported yet: refused by name, never
   compiled as an ordinary global every thread would share. */
static __thread int counter;
int main(void) { return counter; }
