/* expect: 6:23: error: cannot take address of scalar with reverse storage order */
/* gcc's error in a static initializer too (storage_order.cpp,
   check_static_addresses): the pointer would read the member natively. */
struct __attribute__((scalar_storage_order("big-endian"))) s { int *p; int a[2]; int x; };
struct s gs = {0, {1, 2}, 3};
int *member_address = &gs.x;
int **pointer_address = &gs.p;
int *array_address = gs.a;
