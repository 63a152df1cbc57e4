/* Initializers: static locals, local arrays with designators and the
   rest zero, a large constant local copied from data, strings into char
   arrays, compound literals, struct results, volatile. */
#include <stdio.h>
#include <string.h>
enum color { RED, GREEN = 5, BLUE };
typedef enum color color_t;
typedef struct node { int v; struct node *next; } node;
volatile int vol = 3;
static const int table[5] = {1, 1, 2, 3, 5};
int counter(void) { static int n; return ++n; }
int twice(void) { static int n = 10, m; m += 2; return n++ + m; }
struct big { int a[40]; };
struct big mkbig(void) { struct big b = {{1, 2, 3}}; b.a[39] = 7; return b; }
int main(void) {
  color_t c = BLUE; printf("%d %d %zu\n", c, GREEN, sizeof(color_t));
  node n3 = {3, 0}, n2 = {2, &n3}, n1 = {1, &n2};
  int s = 0; for (node *p = &n1; p; p = p->next) s += p->v; printf("%d\n", s);
  vol++; vol += 2; int x = vol; printf("%d\n", x);
  int c1 = counter(), c2 = counter(); printf("%d %d\n", c1, c2);
  int t1 = twice(); int t2 = twice(); printf("%d %d\n", t1, t2);
  int loc[100] = {9, 8, 7, [50] = 5, [99] = 1};
  int sum = 0; for (int i = 0; i < 100; i++) sum += loc[i] * i; printf("%d\n", sum);
  int big2[30] = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30};
  sum = 0; for (int i = 0; i < 30; i++) sum += big2[i]; printf("%d\n", sum);
  char str[10] = "hi"; printf("%s %d %d\n", str, str[5], (int)sizeof str);
  char str2[] = "world"; printf("%s %zu\n", str2, sizeof str2);
  int *cl = (int[]){4, 5, 6}; printf("%d\n", cl[2]);
  struct big b = mkbig(); printf("%d %d %d\n", b.a[0], b.a[2], b.a[39]);
  printf("%d\n", mkbig().a[1]);
  printf("%d %d\n", table[4], table[2]);
  const char *strs[] = {"a", "bb", "ccc"}; printf("%zu\n", strlen(strs[2]));
  int q = 0; int r = q ? counter() : 42; printf("%d\n", r); printf("%d\n", counter());
  unsigned char bytes[4] = {0x11, 0x22, 0x33, 0x44}; unsigned w; memcpy(&w, bytes, 4); printf("%x\n", w);
  printf("%s\n", __func__);
  int arr2[2][3] = {{1, 2, 3}, {4, 5}}; printf("%d %d\n", arr2[1][1], arr2[1][2]);
  long l = -1; unsigned u = 1; printf("%d\n", l < u);
  return 0;
}
