/* The program tests/test_debug_info.py runs at -O2 under gdb for struct
   and array variables whose fields sonopt's scalar-replace splits into
   values: each field is bound as a piece of its variable (DebugBind offset
   and size) and codegen-x64 writes composite locations (DW_OP_piece), so at
   each call of g() `p s` and `p s.f` show the value gcc -O0's build shows,
   a field without a place <optimized out>. */
#include <stdio.h>

struct pt {
  int x;
  int y;
};

struct mixed {
  char tag;
  long n;
  double d;
};

int seen;
__attribute__((noinline)) void g(int v) { seen += v; }

__attribute__((noinline)) int point(int a, int b) {
  struct pt s;
  s.x = a;
  s.y = b;
  g(s.x);
  s.x = a + b;
  g(s.y);
  g(s.x);
  return s.x * s.y;
}

__attribute__((noinline)) long mix(int a, long n, double d) {
  struct mixed m = {'q', n, d};
  g(a);
  m.n = n * a;
  m.d = d * 2;
  g((int)m.d);
  return m.n + m.tag + (long)m.d;
}

__attribute__((noinline)) int arr(int a) {
  int v[3];
  v[0] = a;
  v[1] = a * 2;
  v[2] = a + 7;
  g(v[1]);
  v[1] = v[0] + v[2];
  g(v[0]);
  return v[0] + v[1] + v[2];
}

__attribute__((noinline)) int looping(int n) {
  struct pt p = {0, 1};
  for (int i = 0; i < n; i++) {
    p.x += p.y;
    g(p.x);
    p.y *= 2;
  }
  return p.x + p.y;
}

volatile int four = 4;

int main(void) {
  int r = point(four, 6);
  r += (int)mix(four, 10, 1.25);
  r += arr(four);
  r += looping(four);
  printf("%d %d\n", r, seen);
  return 0;
}
