/* Struct values: assignment is a copy, passing by value copies into a
   temporary, returning one goes through the hidden result pointer. */
struct point { char tag; long x, y; };

struct point moved(struct point p, long dx) {
  p.x += dx;
  return p;
}

long use(struct point *out, struct point a) {
  *out = a;
  struct point b = moved(a, 3);
  return b.x + out->y;
}
