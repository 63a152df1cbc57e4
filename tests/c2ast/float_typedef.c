/* expect: 4:6: error: unsupported: long double type 'real' (aka 'long double') */
/* Through a typedef, the message names both types. */
typedef long double real;
real scale = 2;
int main(void) { return 0; }
