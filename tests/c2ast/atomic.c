/* expect: 3:13: error: unsupported: atomic type '_Atomic(int)' */
/* _Atomic. */
_Atomic int counter;
int main(void) { return counter; }
