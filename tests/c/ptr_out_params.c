/* Output parameters: functions returning several results through pointers. */
#include <stdio.h>

static void divmod(int a, int b, int *q, int *r) {
  *q = a / b;
  *r = a % b;
}

static int min_max(const int *v, int n, int *min, int *max) {
  if (n <= 0) return 0;
  *min = *max = v[0];
  for (int i = 1; i < n; i++) {
    if (v[i] < *min) *min = v[i];
    if (v[i] > *max) *max = v[i];
  }
  return 1;
}

static void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

static void sort3(int *a, int *b, int *c) {
  if (*a > *b) swap(a, b);
  if (*b > *c) swap(b, c);
  if (*a > *b) swap(a, b);
}

static int parse_uint(const char *s, unsigned *out, const char **end) {
  unsigned v = 0;
  int digits = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (unsigned)(*s - '0');
    s++;
    digits++;
  }
  *out = v;
  *end = s;
  return digits;
}

int main(void) {
  int q, r;
  divmod(47, 5, &q, &r);
  printf("47 = 5*%d + %d\n", q, r);
  divmod(-47, 5, &q, &r);
  printf("-47 = 5*%d + %d\n", q, r);
  int v[] = {12, -4, 33, 0, 7, -19, 25};
  int mn = 0, mx = 0;
  int ok = min_max(v, 7, &mn, &mx);
  printf("ok %d min %d max %d\n", ok, mn, mx);
  printf("empty ok %d\n", min_max(v, 0, &mn, &mx));
  int a = 9, b = -1, c = 4;
  sort3(&a, &b, &c);
  printf("sorted %d %d %d\n", a, b, c);
  sort3(&v[0], &v[1], &v[2]);
  printf("v %d %d %d\n", v[0], v[1], v[2]);
  const char *input = "123,45,,6789x";
  const char *p = input;
  unsigned total = 0;
  for (;;) {
    unsigned val;
    const char *end;
    int n = parse_uint(p, &val, &end);
    printf("parsed %u (%d digits)\n", val, n);
    total += val;
    if (*end != ',') break;
    p = end + 1;
  }
  printf("total %u\n", total);
  return (int)(total % 256);
}
