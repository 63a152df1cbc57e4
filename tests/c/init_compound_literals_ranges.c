/* Initializers: compound literals at file scope holding nested aggregates
   (a pointer to one, a table of pointers to them, one inside another),
   GNU range designators in global and local arrays, designated members of
   nested structs and arrays, and automatic aggregates from non-constant
   values; offsetof on a nested designator. */
#include <stddef.h>
#include <stdio.h>

struct point { int x, y; };
struct shape { const char *name; int n; struct point pts[3]; };

static struct shape *square = &(struct shape){"square", 2, {{0, 0}, {4, 4}}};
static const struct shape *const table[] = {
    &(struct shape){"line", 2, {[1] = {5, 6}}},
    &(struct shape){.name = "tri", .n = 3, .pts = {{1, 1}, {2, 3}, [2].y = 9}},
};
static int *deep = (int[]){10, 20, 30};
static struct { int *p; struct point q; } nested = {(int[]){7, 8}, {.y = 2}};
int ranges[12] = {[0 ... 3] = 1, [4 ... 7] = 2, [10] = 5, [8 ... 9] = 3};
static unsigned char bytes[] = {[0 ... 1] = 0xab, [2] = 1, [3 ... 5] = 0xab};

static int local_forms(int v) {
  int loc[8] = {[1 ... 3] = v, [5] = v * 2, [6 ... 7] = v - 1};
  struct shape s = {.n = v, .pts[2] = {v, -v}, .pts[0].y = v + 1};
  struct point pts[3] = {[2] = {v, v}, [0 ... 1] = {.x = 1}};
  int sum = 0;
  for (int i = 0; i < 8; i++) sum += loc[i];
  for (int i = 0; i < 3; i++) sum += s.pts[i].x * 10 + s.pts[i].y + pts[i].x + pts[i].y;
  return sum + s.n;
}

int main(void) {
  printf("%s %d %d\n", square->name, square->n, square->pts[1].y);
  for (int i = 0; i < 2; i++) {
    const struct shape *s = table[i];
    printf("%s:", s->name);
    for (int k = 0; k < 3; k++) printf(" (%d,%d)", s->pts[k].x, s->pts[k].y);
    printf("\n");
  }
  printf("%d %d %d %d\n", deep[2], nested.p[1], nested.q.x, nested.q.y);
  for (int i = 0; i < 12; i++) printf("%d", ranges[i]);
  printf(" %zu %d %d\n", sizeof bytes, bytes[2], bytes[5]);
  deep[0] += 1;
  square->pts[0].x = 9;
  printf("%d %d %d\n", deep[0], square->pts[0].x, local_forms(3) + local_forms(-2));
  printf("%zu\n", offsetof(struct shape, pts[2].y));
  return 0;
}
