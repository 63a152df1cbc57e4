/* Structs: member access, nested structs, pointers to members, arrays inside structs. */
#include <stdio.h>

struct point { int x, y; };
struct rect { struct point tl, br; };
struct polygon {
  char name[8];
  int n;
  struct point pts[6];
};

static int area(struct rect r) { return (r.br.x - r.tl.x) * (r.br.y - r.tl.y); }

static long twice_area(const struct polygon *p) {
  long s = 0;
  for (int i = 0; i < p->n; i++) {
    const struct point *a = &p->pts[i], *b = &p->pts[(i + 1) % p->n];
    s += (long)a->x * b->y - (long)b->x * a->y;
  }
  return s < 0 ? -s : s;
}

int main(void) {
  struct point p = {3, 4};
  struct rect r;
  r.tl = p;
  r.br.x = p.x + 10;
  r.br.y = p.y + 5;
  printf("rect (%d,%d)-(%d,%d) area %d\n", r.tl.x, r.tl.y, r.br.x, r.br.y, area(r));
  struct polygon poly = {"hex", 6, {{0, 0}, {4, 0}, {6, 3}, {4, 6}, {0, 6}, {-2, 3}}};
  printf("%s has %d points, twice area %ld\n", poly.name, poly.n, twice_area(&poly));
  /* Pointers to members and into nested members. */
  int *px = &r.br.x;
  *px += 1;
  struct point *corner = &r.tl;
  corner->y -= 2;
  printf("after edits area %d\n", area(r));
  /* Arrays of nested structs. */
  struct rect rs[3];
  for (int i = 0; i < 3; i++) {
    rs[i].tl.x = i;
    rs[i].tl.y = i * 2;
    rs[i].br.x = i + 5;
    rs[i].br.y = i * 2 + 7;
  }
  int total = 0;
  for (int i = 0; i < 3; i++) total += area(rs[i]);
  printf("total %d\n", total);
  /* Struct with members of every size. */
  struct mixed { char c; short s; int i; long l; long long ll; unsigned char uc; } m;
  m.c = -1; m.s = -2; m.i = -3; m.l = -4; m.ll = -5; m.uc = 250;
  printf("mixed %d %d %d %ld %lld %u sum %lld\n", m.c, m.s, m.i, m.l, m.ll, m.uc,
         m.c + m.s + m.i + m.l + m.ll + m.uc);
  poly.pts[5].x = poly.pts[0].x;
  poly.name[0] = 'H';
  printf("%s twice area now %ld\n", poly.name, twice_area(&poly));
  return total + area(r);
}
