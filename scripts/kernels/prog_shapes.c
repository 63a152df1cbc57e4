/* prog_shapes.c - method calls: objects with a table of function
   pointers (a C "vtable": area, perimeter, scale), kept in an array of
   base pointers and called through the table in a loop; the kinds are
   mixed so each call site sees several targets. */
#include <stdlib.h>
#include "common.h"

struct shape;
struct ops {
  long (*area)(const struct shape *);
  long (*perimeter)(const struct shape *);
  void (*scale)(struct shape *, long);
};
struct shape { const struct ops *ops; long a, b; };

static long rect_area(const struct shape *s) { return s->a * s->b; }
static long rect_perimeter(const struct shape *s) { return 2 * (s->a + s->b); }
static void rect_scale(struct shape *s, long k) { s->a = s->a * k % 1000 + 1; s->b = s->b * k % 1000 + 1; }
static long square_area(const struct shape *s) { return s->a * s->a; }
static long square_perimeter(const struct shape *s) { return 4 * s->a; }
static void square_scale(struct shape *s, long k) { s->a = s->a * k % 1000 + 1; }
static long tri_area(const struct shape *s) { return s->a * s->b / 2; }
static long tri_perimeter(const struct shape *s) { return s->a + s->b + (s->a > s->b ? s->a : s->b); }
static void tri_scale(struct shape *s, long k) { s->a = s->a * k % 997 + 1; s->b = s->b * k % 991 + 1; }

static const struct ops rect_ops = {rect_area, rect_perimeter, rect_scale};
static const struct ops square_ops = {square_area, square_perimeter, square_scale};
static const struct ops tri_ops = {tri_area, tri_perimeter, tri_scale};

int main(int argc, char **argv) {
  long rounds = kernel_scale(argc, argv, 4000), r, i, n = 10000, total = 0;
  struct shape **shapes = malloc(sizeof *shapes * (size_t)n);
  unsigned long seed = 3;
  for (i = 0; i < n; i++) {
    struct shape *s = malloc(sizeof *s);
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    s->ops = seed >> 62 == 0 ? &rect_ops : seed >> 62 == 1 ? &square_ops : &tri_ops;
    s->a = (long)(seed >> 40) % 100 + 1;
    s->b = (long)(seed >> 20) % 100 + 1;
    shapes[i] = s;
  }
  for (r = 0; r < rounds; r++)
    for (i = 0; i < n; i++) {
      struct shape *s = shapes[i];
      total += s->ops->area(s) - s->ops->perimeter(s);
      if ((i + r) % 7 == 0) s->ops->scale(s, r % 5 + 2);
    }
  printf("shapes %ld\n", total);
  for (i = 0; i < n; i++) free(shapes[i]);
  free(shapes);
  return 0;
}
