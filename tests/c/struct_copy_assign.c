/* Struct copy assignment: whole-struct copies are independent, including nested arrays. */
#include <stdio.h>

struct inner { short a[3]; char tag; };
struct outer {
  int id;
  struct inner in;
  long values[4];
  const char *label;
};

static void show(const char *what, const struct outer *o) {
  printf("%s: id %d in {%d %d %d %c} values {%ld %ld %ld %ld} %s\n", what, o->id, o->in.a[0],
         o->in.a[1], o->in.a[2], o->in.tag, o->values[0], o->values[1], o->values[2],
         o->values[3], o->label);
}

struct outer global_template = {1, {{10, 20, 30}, 'g'}, {100, 200, 300, 400}, "global"};

int main(void) {
  struct outer a = global_template;
  struct outer b;
  b = a;
  b.id = 2;
  b.in.a[1] = -20;
  b.values[3] = -400;
  b.label = "copy";
  show("a", &a);
  show("b", &b);
  /* Chained assignment copies through. */
  struct outer c, d;
  c = d = b;
  d.in.tag = 'd';
  show("c", &c);
  show("d", &d);
  /* Copy an inner struct alone. */
  a.in = d.in;
  show("a2", &a);
  /* Copy through pointers. */
  struct outer *pa = &a, *pb = &b;
  *pa = *pb;
  show("a3", &a);
  /* Self-assignment through a pointer is fine (the copy may overlap exactly). */
  *pa = a;
  /* Array of structs copied element by element and the global restored. */
  struct outer arr[3];
  for (int i = 0; i < 3; i++) {
    arr[i] = global_template;
    arr[i].id = 10 + i;
    arr[i].values[i] = i;
  }
  global_template.id = 99;
  for (int i = 0; i < 3; i++) show("arr", &arr[i]);
  show("global", &global_template);
  /* Swap two structs through a temporary. */
  struct inner x = {{1, 2, 3}, 'x'}, y = {{7, 8, 9}, 'y'}, t;
  t = x; x = y; y = t;
  printf("x %c %d y %c %d\n", x.tag, x.a[0], y.tag, y.a[2]);
  return a.id + arr[2].id + x.a[0];
}
