/* expect: 3:23: error: scalar_storage_order argument must be one of "big-endian" or "little-endian" */
/* gcc's error for any other argument. */
struct __attribute__((scalar_storage_order("middle-endian"))) s { int x; };
int main(void) { struct s v = {0}; return v.x; }
