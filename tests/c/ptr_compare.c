/* Pointer comparisons inside one array, equality with NULL, and pointers one past the end. */
#include <stdio.h>
#include <stddef.h>

static int *find(int *begin, int *end, int value) {
  for (int *p = begin; p != end; p++)
    if (*p == value) return p;
  return NULL;
}

static int count_between(const int *lo, const int *hi) {
  int n = 0;
  for (const int *p = lo; p < hi; p++) n++;
  return n;
}

int main(void) {
  int a[10] = {5, 3, 9, 1, 7, 3, 8, 2, 6, 4};
  int *end = a + 10;
  int *p = find(a, end, 7);
  int *q = find(a, end, 42);
  printf("found 7 at %d, 42 found: %d\n", p ? (int)(p - a) : -1, q != NULL);
  printf("p < end %d, p > a %d, p <= end %d, p >= end %d\n", p < end, p > a, p <= end, p >= end);
  printf("count_between %d %d\n", count_between(a, end), count_between(a + 3, a + 8));
  /* Find all threes. */
  int found = 0;
  for (int *r = a; (r = find(r, end, 3)) != NULL; r++) {
    printf("3 at %d\n", (int)(r - a));
    found++;
  }
  /* Minimum by pointer. */
  int *min = a;
  for (int *r = a + 1; r < end; r++)
    if (*r < *min) min = r;
  printf("min %d at %d\n", *min, (int)(min - a));
  /* Two pointers meeting in the middle (reverse). */
  int *lo = a, *hi = end - 1;
  while (lo < hi) {
    int t = *lo;
    *lo++ = *hi;
    *hi-- = t;
  }
  for (int k = 0; k < 10; k++) printf("%d ", a[k]);
  printf("\n");
  /* Null pointer comparisons and conversions. */
  int *n1 = 0;
  void *n2 = NULL;
  printf("n1 == n2 %d, !n1 %d, n1 == 0 %d\n", n1 == n2, !n1, n1 == 0);
  /* Pointers to struct members compare in declaration order. */
  struct { int x; int y; char z; } s;
  printf("&s.x < &s.y %d, (char*)&s.y < &s.z %d\n", &s.x < &s.y, (char *)&s.y < &s.z);
  /* Pointers into a 2D array. */
  int m[3][4];
  printf("&m[1][0] > &m[0][3] %d, &m[2][0] - &m[0][0] = %d\n", &m[1][0] > &m[0][3],
         (int)(&m[2][0] - &m[0][0]));
  return found * 10 + (int)(min - a);
}
