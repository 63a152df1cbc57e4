/* Struct values as temporaries: ?: and , with struct operands, a returned struct passed
   straight to another call, members and array elements of returned structs, and
   assignment expressions of struct type used as values. */
#include <stdio.h>

struct v2 { long x, y; };
struct box { int n; char tag[6]; struct v2 corner; };

static struct v2 mk(long x, long y) { struct v2 r = {x, y}; return r; }
static struct v2 add(struct v2 a, struct v2 b) { return mk(a.x + b.x, a.y + b.y); }
static long dot(struct v2 a, struct v2 b) { return a.x * b.x + a.y * b.y; }
static int calls;
static struct box make_box(int n) {
  struct box b = {n, "box", {n, -n}};
  b.tag[3] = (char)('0' + n % 10);
  calls++;
  return b;
}

int main(void) {
  struct v2 a = mk(1, 2), b = mk(10, 20);
  int flag = 1;
  struct v2 c = flag ? a : b;
  struct v2 d = !flag ? a : b;
  printf("c %ld %ld d %ld %ld\n", c.x, c.y, d.x, d.y);
  /* A conditional of struct type passed by value, only one arm evaluated. */
  calls = 0;
  struct box chosen = flag ? make_box(3) : make_box(4);
  printf("chosen %d %s calls %d\n", chosen.n, chosen.tag, calls);
  /* Comma with a struct right operand. */
  struct v2 e = (calls++, mk(7, 8));
  printf("e %ld %ld calls %d\n", e.x, e.y, calls);
  /* Returned structs as arguments, nested. */
  struct v2 s = add(add(a, b), add(mk(100, 200), mk(-1, -1)));
  printf("s %ld %ld dot %ld\n", s.x, s.y, dot(add(a, b), mk(2, 3)));
  /* Members and array elements of a returned struct. */
  printf("member %ld tag[3] %c corner.y %ld\n", mk(5, 6).y, make_box(7).tag[3], make_box(9).corner.y);
  /* The value of an assignment of struct type. */
  struct v2 f, g;
  g = (f = mk(11, 12));
  f.x = 0;
  printf("f %ld %ld g %ld %ld\n", f.x, f.y, g.x, g.y);
  /* Struct assignment whose source overlaps the destination's array element. */
  struct v2 arr[3] = {{1, 1}, {2, 2}, {3, 3}};
  arr[0] = arr[2];
  arr[2] = add(arr[0], arr[1]);
  printf("arr %ld %ld %ld\n", arr[0].x, arr[1].x, arr[2].y);
  /* Swapping through a conditional of pointers. */
  struct v2 *p = flag ? &arr[1] : &arr[2];
  *p = mk(p->y * 10, p->x * 100);
  printf("arr[1] %ld %ld\n", arr[1].x, arr[1].y);
  return (int)(s.x + s.y + arr[1].y) % 256;
}
