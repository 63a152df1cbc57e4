/* A generic sort taking a comparator function pointer (like qsort), used on ints, strings
   and structs, with ascending, descending and multi-key comparators. */
#include <stdio.h>
#include <string.h>

typedef int (*cmp_fn)(const void *, const void *);

static void swap_mem(char *a, char *b, size_t n) {
  while (n--) { char t = *a; *a++ = *b; *b++ = t; }
}

/* Insertion sort for short ranges, quicksort (middle pivot) otherwise. */
static void gsort(void *base, size_t n, size_t size, cmp_fn cmp) {
  char *b = base;
  if (n < 8) {
    for (size_t i = 1; i < n; i++)
      for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
        swap_mem(b + (j - 1) * size, b + j * size, size);
    return;
  }
  swap_mem(b, b + (n / 2) * size, size);
  size_t last = 0;
  for (size_t i = 1; i < n; i++)
    if (cmp(b + i * size, b) < 0) swap_mem(b + ++last * size, b + i * size, size);
  swap_mem(b, b + last * size, size);
  gsort(b, last, size, cmp);
  gsort(b + (last + 1) * size, n - last - 1, size, cmp);
}

static int asc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int desc(const void *a, const void *b) { return asc(b, a); }
static int by_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

struct item { int group; int weight; char name[4]; };
static int by_group_then_weight(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  if (x->group != y->group) return x->group - y->group;
  return y->weight - x->weight;
}

int main(void) {
  int v[30];
  unsigned s = 7;
  for (int i = 0; i < 30; i++) { s = s * 69069u + 1u; v[i] = (int)(s >> 20) - 2048; }
  gsort(v, 30, sizeof v[0], asc);
  for (int i = 0; i < 30; i++) printf("%d ", v[i]);
  printf("\n");
  gsort(v, 30, sizeof v[0], desc);
  printf("desc first %d last %d\n", v[0], v[29]);
  const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date", "grape", "kiwi", "lime"};
  gsort(words, 9, sizeof words[0], by_str);
  for (int i = 0; i < 9; i++) printf("%s ", words[i]);
  printf("\n");
  struct item items[10];
  for (int i = 0; i < 10; i++) {
    items[i].group = (i * 7) % 3;
    items[i].weight = (i * 13) % 10;
    sprintf(items[i].name, "i%d", i);
  }
  gsort(items, 10, sizeof items[0], by_group_then_weight);
  for (int i = 0; i < 10; i++) printf("%s(%d,%d) ", items[i].name, items[i].group, items[i].weight);
  printf("\n");
  return v[0] & 0xFF;
}
