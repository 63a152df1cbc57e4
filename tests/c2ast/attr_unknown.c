/* expect: 3:28: error: unsupported: attribute 'no_such_attribute' */
/* An attribute clang does not know is refused, not dropped. */
int f(void) __attribute__((no_such_attribute));
int main(void) { return f(); }
