/* Static structs whose flexible array member has an initializer (GNU C):
   the object grows to hold it, as with gcc - ints, a string, pointers to
   strings, zeros, none at all, and the neighbours laid out after them must
   stay intact when the arrays are written. */
#include <stdio.h>
#include <string.h>

struct ints { int n; int a[]; };
struct text { char tag; char s[]; };
struct names { long count; const char *name[]; };

struct ints three = {3, {10, 20, 30}};
struct text msg = {'o', "wx"};
struct names table = {2, {"alpha", "beta"}};
static struct ints none = {0};
struct ints zeros = {2, {0, 0}};
static struct ints after = {1, {7}};
static int guard = 12345;

static int sum(const struct ints *p) {
  int s = 0;
  for (int i = 0; i < p->n; i++) s += p->a[i];
  return s;
}

int main(void) {
  printf("%d %d %d %d sum %d\n", three.n, three.a[0], three.a[1], three.a[2], sum(&three));
  printf("%c %s %zu\n", msg.tag, msg.s, strlen(msg.s));
  for (long i = 0; i < table.count; i++) printf("%s ", table.name[i]);
  printf("\n%d %d %d %d\n", none.n, zeros.n, zeros.a[0], zeros.a[1]);
  for (int i = 0; i < three.n; i++) three.a[i] *= 2;
  zeros.a[1] = 5;
  after.a[0]++;
  printf("%d %d %d %d guard %d\n", sum(&three), sum(&zeros), after.a[0], msg.s[1], guard);
  return 0;
}
