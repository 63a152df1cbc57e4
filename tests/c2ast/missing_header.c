/* expect: 3:10: error: 'no_such_header.h' file not found */
/* An #include that names no file. */
#include "no_such_header.h"
int main(void) { return 0; }
