/* expect: 4:6: error: unsupported: floating point type 'real' (aka '__float128') */
/* Through a typedef, the message names both types. */
typedef __float128 real;
real scale = 2;
int main(void) { return 0; }
