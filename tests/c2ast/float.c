/* expect: 5:21: error: unsupported: complex type 'cq' (aka '_Complex __float128') */
/* _Complex long double is supported (issues 18 and 19); the complex form of
   __float128, like __float128 itself, is refused by name, through a typedef. */
typedef _Complex __float128 cq;
int main(void) { cq d = 1.5; return 0; }
