/* typedefs: of integer types, structs (tagged and anonymous), pointers, arrays, function
   pointer types, and typedefs of typedefs; scoping of a typedef name. */
#include <stdio.h>

typedef unsigned char byte;
typedef byte octet;
typedef long long i64;
typedef struct point { int x, y; } point;
typedef struct { char name[8]; point where; } place;
typedef point *point_ptr;
typedef int vec3[3];
typedef int (*reducer)(int, int);
typedef const char *cstr;
typedef struct node node;
struct node { int value; node *next; };

static int add(int a, int b) { return a + b; }
static int max(int a, int b) { return a > b ? a : b; }

static int reduce(const vec3 v, reducer f, int init) {
  int acc = init;
  for (int i = 0; i < 3; i++) acc = f(acc, v[i]);
  return acc;
}

static i64 dot(const vec3 a, const vec3 b) {
  i64 s = 0;
  for (int i = 0; i < 3; i++) s += (i64)a[i] * b[i];
  return s;
}

int main(void) {
  octet o = 250;
  o += 10;
  byte b = o;
  printf("octet %u byte %u sizeof %d\n", o, b, (int)sizeof(octet));
  point p = {3, 4};
  point_ptr pp = &p;
  pp->x *= 10;
  place home = {"home", {1, 2}};
  printf("p %d %d home %s (%d,%d)\n", p.x, p.y, home.name, home.where.x, home.where.y);
  vec3 a = {1, 2, 3}, c = {4, -5, 6};
  reducer fs[2] = {add, max};
  printf("sum %d max %d dot %lld sizeof vec3 %d\n", reduce(a, fs[0], 0), reduce(c, fs[1], -100),
         dot(a, c), (int)sizeof(vec3));
  cstr words[3] = {"typedef", "names", "types"};
  for (int i = 0; i < 3; i++) printf("%s ", words[i]);
  printf("\n");
  node n2 = {2, 0}, n1 = {1, &n2};
  int total = 0;
  for (node *n = &n1; n; n = n->next) total += n->value;
  {
    typedef short point;  /* shadows the outer typedef inside this block */
    point s = 32767;
    s = (point)(s + 1);
    printf("inner point %d sizeof %d\n", s, (int)sizeof(point));
  }
  printf("outer point sizeof %d total %d\n", (int)sizeof(point), total);
  return (int)(dot(a, c) + total + b);
}
