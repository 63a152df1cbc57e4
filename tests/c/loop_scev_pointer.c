/* Scalar evolution of pointer induction variables: a pointer walked to the
   end of an array (`p != a + n`, `p < end`) with nothing else in the loop
   folds to its closed form a + n; a pointer stepping by a struct's size; and
   derived values (an index computed from the pointer after the loop). */
#include <stdio.h>

struct pair { int key; short tag; };

static int walk_ne(int *a, int n) {
  int *p;
  int count = 0;
  for (p = a; p != a + n; p++) count++;
  return (int)(p - a) * 100 + count;
}

static long walk_lt(const char *s, const char *end) {
  const char *p = s;
  long steps = 0;
  while (p < end) {
    p += 2;
    steps += 3;
  }
  return (p - s) * 1000 + steps;
}

static int walk_struct(struct pair *v, int n) {
  struct pair *q = v;
  for (int i = 0; i < n; i++) q++;
  return (int)(q - v) + q[-1].key;
}

static int down_ptr(int *a, int n) {
  int *p = a + n;
  int k = 0;
  while (p != a) {
    --p;
    k += 5;
  }
  return k + (int)(p - a);
}

static int sum_walk(int *a, int n) {
  int s = 0;
  for (int *p = a; p < a + n; p++) s += *p;  /* a load: the value is not a recurrence */
  return s;
}

int main(void) {
  int a[40];
  struct pair v[12];
  char text[64];
  for (int i = 0; i < 40; i++) a[i] = i * 3 - 17;
  for (int i = 0; i < 12; i++) {
    v[i].key = i * i;
    v[i].tag = (short)i;
  }
  for (int i = 0; i < 64; i++) text[i] = (char)('a' + i % 26);
  unsigned check = 0;
  for (int n = 0; n <= 12; n += 3) {
    int w = walk_ne(a, n * 3);
    long l = walk_lt(text, text + n * 5);
    int s = n > 0 ? walk_struct(v, n) : 0;
    int d = down_ptr(a, n);
    int m = sum_walk(a, n * 2);
    printf("n=%d ne=%d lt=%ld struct=%d down=%d sum=%d\n", n, w, l, s, d, m);
    check = check * 29u + (unsigned)w + (unsigned)l + (unsigned)s + (unsigned)d + (unsigned)m;
  }
  printf("check %u\n", check);
  return (int)(check % 256u);
}
