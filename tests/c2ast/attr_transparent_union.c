/* expect: 3:59: error: unsupported: attribute 'transparent_union' */
/* transparent_union changes how arguments are passed. */
typedef union { int *i; long *l; } any_ptr __attribute__((transparent_union));
int get(any_ptr p) { return *p.i; }
int main(void) { int x = 0; return get(&x); }
