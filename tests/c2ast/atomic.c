/* expect: 4:16: error: unsupported: atomic type '_Atomic(double)' */
/* _Atomic integers and pointers are supported (atomics.cpp); floating and
   struct types are not. */
_Atomic double total;
int main(void) { return total > 0; }
