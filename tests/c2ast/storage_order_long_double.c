/* expect: 6:35: error: unsupported: long double member of a struct with reverse scalar storage order */
/* gcc itself says "sorry, unimplemented: reverse storage order for XFmode". */
#pragma scalar_storage_order big-endian
struct s { long double x; int i; };
#pragma scalar_storage_order default
double f(struct s *v) { return v->x + v->i; }
