/* Thread-local variables (issue 19): __thread and _Thread_local at file and
   function scope, initialized and zero, scalars, arrays, structs and
   pointers; their addresses taken, passed and stored; an extern __thread
   declaration of a variable defined further down; tls_model attributes.
   Run on one thread, each variable behaves as an ordinary global would
   (its own storage, its initial value). */
#include <stdio.h>

struct point { int x, y; long tag; };

__thread int counter = 7;
_Thread_local long zero_long;
static __thread unsigned char bytes[24] = {1, 2, 3};
static _Thread_local struct point origin = {10, 20, 30};
__thread struct point pts[4];
__thread const char *name = "main thread";
__thread int *cursor = 0;
extern __thread int defined_later;
__thread double scale __attribute__((tls_model("initial-exec"))) = 1.5;
static __thread short hidden_short __attribute__((tls_model("local-exec"))) = -3;

static int next_id(void) {
  static _Thread_local int id = 100;
  return id++;
}

static void bump(int *p, int by) { *p += by; }

static long sum_points(struct point *p, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += p[i].x * 3 + p[i].y + p[i].tag;
  return s;
}

int main(void) {
  printf("%d %ld %d %d %d\n", counter, zero_long, bytes[0], bytes[2], bytes[23]);
  counter++;
  bump(&counter, 10);
  zero_long = counter * 1000L;
  printf("%d %ld\n", counter, zero_long);
  for (int i = 0; i < 24; i++) bytes[i] = (unsigned char)(bytes[i] + i * 7);
  int sum = 0;
  for (int i = 0; i < 24; i++) sum += bytes[i];
  printf("bytes sum %d\n", sum);
  printf("origin %d %d %ld\n", origin.x, origin.y, origin.tag);
  origin.y -= 5;
  struct point copy = origin;
  for (int i = 0; i < 4; i++) {
    pts[i] = copy;
    pts[i].x += i;
    copy.tag *= 2;
  }
  printf("points %ld\n", sum_points(pts, 4));
  printf("%s %c\n", name, name[5]);
  name = "renamed";
  printf("%s\n", name);
  cursor = &defined_later;
  *cursor += 5;
  printf("defined_later %d\n", defined_later);
  int a = next_id(), b = next_id(), c = next_id();
  printf("ids %d %d %d\n", a, b, c);
  scale *= 4;
  hidden_short = (short)(hidden_short * 1000);
  printf("%.2f %d\n", scale, hidden_short);
  int *p = &counter, *q = &counter;
  printf("same address %d\n", p == q);
  long total = 0;
  for (int round = 0; round < 50; round++) {
    counter += round;
    total += counter + bytes[round % 24];
  }
  printf("total %ld\n", total);
  return counter % 256;
}

__thread int defined_later = 37;
