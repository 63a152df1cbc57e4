/* expect: 3:27: error: unsupported: attribute 'common' */
/* common makes a tentative definition a common symbol. */
int shared __attribute__((common));
int main(void) { return shared; }
