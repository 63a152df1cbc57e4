/* Passing structs by value (the callee gets a copy) and returning them, small and large. */
#include <stdio.h>

struct small { char c; };
struct pair { int a, b; };
struct triple { long x, y, z; };
struct big { int v[20]; char name[9]; };

static struct small next_char(struct small s) { s.c++; return s; }
static struct pair swap(struct pair p) { struct pair r = {p.b, p.a}; return r; }
static struct triple scale(struct triple t, long k) { t.x *= k; t.y *= k; t.z *= k; return t; }
static struct triple cross(struct triple u, struct triple v) {
  struct triple r;
  r.x = u.y * v.z - u.z * v.y;
  r.y = u.z * v.x - u.x * v.z;
  r.z = u.x * v.y - u.y * v.x;
  return r;
}

static struct big make_big(int seed) {
  struct big b;
  for (int i = 0; i < 20; i++) b.v[i] = seed * i;
  for (int i = 0; i < 8; i++) b.name[i] = (char)('a' + (seed + i) % 26);
  b.name[8] = 0;
  return b;
}

static int sum_big(struct big b) {
  int s = 0;
  for (int i = 0; i < 20; i++) s += b.v[i];
  b.v[0] = 12345; /* modifies the callee's copy only */
  return s;
}

static struct pair fib_pair(int n) {
  if (n == 0) { struct pair base = {0, 1}; return base; }
  struct pair p = fib_pair(n - 1);
  struct pair r = {p.b, p.a + p.b};
  return r;
}

int main(void) {
  struct small s = {'a'};
  s = next_char(next_char(s));
  printf("small %c\n", s.c);
  struct pair p = {1, 2};
  struct pair q = swap(p);
  printf("p %d %d q %d %d\n", p.a, p.b, q.a, q.b);
  struct triple t = {1, 2, 3};
  struct triple u = scale(t, 10);
  struct triple w = cross(t, u);
  struct triple i = {1, 0, 0}, j = {0, 1, 0};
  struct triple k = cross(i, j);
  printf("u %ld %ld %ld w %ld %ld %ld k %ld %ld %ld\n", u.x, u.y, u.z, w.x, w.y, w.z, k.x, k.y, k.z);
  struct big b = make_big(3);
  int sb = sum_big(b);
  printf("big %s sum %d v0 %d\n", b.name, sb, b.v[0]);
  printf("direct member of returned struct: %d %s\n", make_big(5).v[19], make_big(1).name);
  struct pair f = fib_pair(40);
  printf("fib pair %d %d\n", f.a, f.b);
  return (sb + f.a) % 256;
}
