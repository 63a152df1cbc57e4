/* Pointers and a struct: members at clang's offsets, a copy, a pointer walk. */
#include <stdio.h>

struct point {
  short x;
  long y;
};

static long area(const struct point *a, const struct point *b) {
  long w = b->x - a->x;
  return w * (b->y - a->y);
}

int main(void) {
  struct point corners[2] = {{1, 2}, {4, 10}};
  struct point copy = corners[1];
  copy.x += 2;
  struct point *p = &corners[0];
  printf("area = %ld, copied area = %ld, sizeof = %zu\n", area(p, p + 1), area(p, &copy), sizeof(struct point));
  return 0;
}
