/* expect: 3:31: error: unsupported: attribute 'returns_twice' */
/* returns_twice (setjmp-like) needs every value in memory across the call. */
int save(void) __attribute__((returns_twice));
int main(void) { return save(); }
