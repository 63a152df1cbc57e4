/* A growable array with realloc (doubling), a string builder, and calloc'd zeroed memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec { long *data; size_t len, cap; int grows; };

static void push(struct vec *v, long x) {
  if (v->len == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 1;
    v->data = realloc(v->data, v->cap * sizeof *v->data);
    v->grows++;
  }
  v->data[v->len++] = x;
}

struct sb { char *buf; size_t len, cap; };

static void append(struct sb *b, const char *s) {
  size_t n = strlen(s);
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 8;
    while (b->len + n + 1 > cap) cap *= 2;
    b->buf = realloc(b->buf, cap);
    b->cap = cap;
  }
  memcpy(b->buf + b->len, s, n + 1);
  b->len += n;
}

int main(void) {
  struct vec v = {0, 0, 0, 0};
  for (long i = 0; i < 1000; i++) push(&v, i * i % 1009);
  long s = 0;
  for (size_t i = 0; i < v.len; i++) s += v.data[i];
  printf("len %zu cap %zu grows %d sum %ld\n", v.len, v.cap, v.grows, s);
  /* Shrink with realloc keeps the prefix. */
  v.data = realloc(v.data, 10 * sizeof *v.data);
  v.len = v.cap = 10;
  for (size_t i = 0; i < v.len; i++) printf("%ld ", v.data[i]);
  printf("\n");
  free(v.data);
  struct sb b = {0, 0, 0};
  char num[16];
  for (int i = 0; i < 50; i++) {
    sprintf(num, "%d,", i * 7);
    append(&b, num);
  }
  printf("%s\nlength %zu capacity %zu\n", b.buf, b.len, b.cap);
  free(b.buf);
  /* calloc returns zeroed memory; realloc from NULL acts like malloc. */
  int *z = calloc(100, sizeof(int));
  int zsum = 0;
  for (int i = 0; i < 100; i++) zsum += z[i];
  int *r = realloc(NULL, 4 * sizeof(int));
  for (int i = 0; i < 4; i++) r[i] = i + zsum;
  printf("zsum %d r3 %d\n", zsum, r[3]);
  free(z);
  free(r);
  free(NULL);
  return v.grows + (int)(s % 100);
}
