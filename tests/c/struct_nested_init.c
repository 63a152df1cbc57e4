/* Aggregate initializers: nested structs and arrays, global and local, designated and positional. */
#include <stdio.h>

struct color { unsigned char r, g, b; };
struct style { const char *name; struct color fg, bg; int weights[3]; };
struct palette { int count; struct style styles[4]; };

static struct palette global_palette = {
    3,
    {
        {"plain", {0, 0, 0}, {255, 255, 255}, {1, 2, 3}},
        {"alert", {255, 0, 0}, {0, 0, 0}, {9}},
        {.name = "calm", .bg = {.b = 200}, .weights = {[2] = 7}},
    },
};

static const struct color primaries[] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};

static unsigned int pack(struct color c) { return (unsigned)c.r << 16 | (unsigned)c.g << 8 | c.b; }

static void show(const struct style *s) {
  printf("%-6s fg %06x bg %06x w %d %d %d\n", s->name ? s->name : "(none)", pack(s->fg),
         pack(s->bg), s->weights[0], s->weights[1], s->weights[2]);
}

int main(void) {
  for (int i = 0; i < 4; i++) show(&global_palette.styles[i]);
  struct palette local = {2, {{"local", {1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, {"second"}}};
  for (int i = 0; i < local.count + 1; i++) show(&local.styles[i]);
  for (int i = 0; i < 3; i++) printf("primary %06x\n", pack(primaries[i]));
  struct { int a[2][3]; char s[4]; } grid = {{{1, 2, 3}, {4}}, "ok"};
  int sum = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) sum += grid.a[i][j] * (i + 1);
  printf("grid sum %d %s\n", sum, grid.s);
  /* Brace elision: a flat list fills nested members in order. */
  struct color flat[2] = {10, 20, 30, 40, 50};
  printf("flat %06x %06x\n", pack(flat[0]), pack(flat[1]));
  /* Local initializer from variables. */
  unsigned char k = 77;
  struct color dyn = {k, (unsigned char)(k * 2), (unsigned char)(k * 3)};
  printf("dyn %06x\n", pack(dyn));
  return sum + global_palette.styles[2].weights[2];
}
