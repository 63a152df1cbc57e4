/* Floating point in aggregates: structs mixing ints, floats and doubles
   (the shapes System V classifies as SSE, INTEGER or mixed eightbytes)
   through pointers, a struct of more than 16 bytes (memory class) passed
   and returned by value (c2ast refuses the smaller ones by value until
   their eightbytes are classified), arrays of such structs, nested structs,
   unions of a double and its bits, globals with initializers (including
   -0.0 and a designated partial one) and struct assignment. */
#include <stdio.h>

struct vec2 { double x, y; };
struct fpair { float a, b; };
struct mixed { int id; double weight; };
struct tri { float f; int n; double d; };
struct particle { struct vec2 pos, vel; float mass; char tag; };
union pun { double d; unsigned long long bits; int halves[2]; };

static struct vec2 origin = {-0.0, 0.5};
static struct particle cloud[3] = {{{1, 2}, {0.5, -0.25}, 1.5f, 'a'}, {{-1, 0}, {0, 1}, 2.0f, 'b'}, {.mass = 4.0f, .tag = 'c'}};
static struct fpair halves = {0.5f, 0.25f};

static void add(const struct vec2 *p, const struct vec2 *q, struct vec2 *out) {
  *out = (struct vec2){p->x + q->x, p->y + q->y};
}
static void scale(struct vec2 *p, double k) { p->x *= k; p->y *= k; }
static void swap(const struct fpair *p, struct fpair *out) { struct fpair r = {p->b, p->a}; *out = r; }
static const struct mixed *heavier(const struct mixed *a, const struct mixed *b) { return a->weight >= b->weight ? a : b; }
static void make_tri(float f, int n, double d, struct tri *out) { struct tri t = {f, n, d}; *out = t; }
static double tri_sum(const struct tri *t) { return t->f + t->n + t->d; }

static void step(struct particle *p, double dt) {
  struct vec2 v = p->vel;
  scale(&v, dt);
  add(&p->pos, &v, &p->pos);
  p->vel.y -= 9.81 * dt / p->mass;
}

static struct particle moved(struct particle p, double dt) { /* 40 bytes: in memory both ways */
  step(&p, dt);
  p.tag++;
  return p;
}

int main(void) {
  for (int t = 0; t < 10; t++)
    for (int i = 0; i < 3; i++) step(&cloud[i], 0.05);
  for (int i = 0; i < 3; i++)
    printf("%c pos (%.6f, %.6f) vel (%.6f, %.6f) mass %g\n", cloud[i].tag, cloud[i].pos.x, cloud[i].pos.y,
           cloud[i].vel.x, cloud[i].vel.y, cloud[i].mass);
  struct vec2 o = origin;
  printf("origin %g %g\n", o.x, o.y);
  struct fpair s;
  swap(&halves, &s);
  printf("swap %g %g\n", s.a, s.b);
  struct mixed m1 = {1, 2.5}, m2 = {2, 7.25};
  const struct mixed *h = heavier(&m1, &m2);
  printf("heavier %d %g\n", h->id, h->weight);
  struct tri tr;
  make_tri(1.25f, -3, 1e10, &tr);
  printf("tri %g %d %g sum %.17g\n", tr.f, tr.n, tr.d, tri_sum(&tr));
  struct particle next = moved(cloud[1], 0.5);
  printf("moved %c (%.6f, %.6f) from %c\n", next.tag, next.pos.x, next.pos.y, cloud[1].tag);
  union pun u;
  u.d = -2.0;
  printf("pun %#llx %d %d\n", u.bits, u.halves[0], u.halves[1]);
  u.bits = 0x3ff8000000000000ull;
  printf("pun back %g\n", u.d);
  struct particle copy = cloud[0];
  copy.mass *= 2;
  printf("copy %g original %g sizes %d %d %d\n", copy.mass, cloud[0].mass, (int)sizeof(struct tri),
         (int)sizeof(struct particle), (int)sizeof(struct fpair));
  return (int)(cloud[0].pos.y * 100) & 0xff;
}
