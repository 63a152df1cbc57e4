/* expect: 4:6: error: unsupported: floating point type 'real' (aka 'float') */
/* Through a typedef, the message names both types. */
typedef float real;
real scale = 2;
int main(void) { return 0; }
