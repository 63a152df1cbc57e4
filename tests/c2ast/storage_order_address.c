/* expect: 7:10: error: cannot take address of scalar with reverse storage order */
/* gcc's error: a pointer to a member of a big-endian struct would read it
   in the native order (storage_order.cpp). The address of a member array
   and of a pointer member are allowed, as in gcc. */
struct __attribute__((scalar_storage_order("big-endian"))) s { int *p; int a[2]; int x; };
int *member(struct s *v) {
  return &v->x;
}
int **pointer(struct s *v) { return &v->p; }
int *array(struct s *v) { return v->a; }
