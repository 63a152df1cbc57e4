/* Structs holding function pointers: a small object system with a vtable per shape. */
#include <stdio.h>

struct shape;
struct shape_ops {
  const char *name;
  long (*area)(const struct shape *);
  long (*perimeter)(const struct shape *);
  void (*scale)(struct shape *, int);
};
struct shape {
  const struct shape_ops *ops;
  long a, b;
};

static long rect_area(const struct shape *s) { return s->a * s->b; }
static long rect_perim(const struct shape *s) { return 2 * (s->a + s->b); }
static void rect_scale(struct shape *s, int k) { s->a *= k; s->b *= k; }
static long sq_area(const struct shape *s) { return s->a * s->a; }
static long sq_perim(const struct shape *s) { return 4 * s->a; }
static void sq_scale(struct shape *s, int k) { s->a *= k; }
/* A right triangle with legs a and b: area a*b/2, no perimeter (needs sqrt). */
static long tri_area(const struct shape *s) { return s->a * s->b / 2; }
static long no_perim(const struct shape *s) { (void)s; return -1; }

static const struct shape_ops rect_ops = {"rect", rect_area, rect_perim, rect_scale};
static const struct shape_ops square_ops = {"square", sq_area, sq_perim, sq_scale};
static const struct shape_ops tri_ops = {"triangle", tri_area, no_perim, rect_scale};

static long total_area(struct shape *shapes, int n) {
  long t = 0;
  for (int i = 0; i < n; i++) t += shapes[i].ops->area(&shapes[i]);
  return t;
}

int main(void) {
  struct shape shapes[] = {
      {&rect_ops, 3, 4}, {&square_ops, 5, 0}, {&tri_ops, 6, 7}, {&rect_ops, 10, 1}, {&square_ops, 2, 0}};
  int n = (int)(sizeof shapes / sizeof shapes[0]);
  for (int i = 0; i < n; i++) {
    struct shape *s = &shapes[i];
    printf("%-8s area %3ld perimeter %3ld\n", s->ops->name, s->ops->area(s), s->ops->perimeter(s));
  }
  long before = total_area(shapes, n);
  for (int i = 0; i < n; i++) shapes[i].ops->scale(&shapes[i], i + 1);
  long after = total_area(shapes, n);
  printf("total area before %ld after %ld\n", before, after);
  /* Dispatch through a pointer to the ops struct's member. */
  long (*const *slot)(const struct shape *) = &square_ops.area;
  printf("via slot %ld\n", (*slot)(&shapes[1]));
  int rects = 0;
  for (int i = 0; i < n; i++) rects += shapes[i].ops == &rect_ops;
  printf("rects %d\n", rects);
  return (int)(after % 256);
}
