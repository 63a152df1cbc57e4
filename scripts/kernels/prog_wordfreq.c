/* prog_wordfreq.c - string handling: a text made of pseudo-random words
   is split into words, counted in a chained hash table (strcmp, strcpy),
   and the most frequent are sorted with qsort and a comparison function. */
#include <stdlib.h>
#include <string.h>
#include "common.h"

struct entry { struct entry *next; long count; char word[16]; };

static const char *syllables[] = {"ka", "lo", "mi", "ne", "tu", "ra", "si", "po", "qe", "zu", "ba", "do"};

static unsigned long hash(const char *s) {
  unsigned long h = 5381;
  while (*s) h = h * 33 + (unsigned char)*s++;
  return h;
}

static int by_count(const void *a, const void *b) {
  const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return strcmp(x->word, y->word);
}

int main(int argc, char **argv) {
  long words = kernel_scale(argc, argv, 8000000), i, distinct = 0, size = 0;
  enum { BUCKETS = 4096 };
  static struct entry *table[BUCKETS];
  unsigned long seed = 7;
  char *text = malloc((size_t)words * 8 + 1), *p, *q;
  struct entry **all;
  for (i = 0; i < words; i++) {
    int n = 1 + (int)((seed >> 40) % 3), k;
    for (k = 0; k < n; k++) {
      seed = seed * 6364136223846793005ul + 1442695040888963407ul;
      memcpy(text + size, syllables[(seed >> 33) % 12], 2);
      size += 2;
    }
    text[size++] = (seed >> 50) % 7 == 0 ? '\n' : ' ';
  }
  text[size] = 0;
  for (p = text; *p;) {
    char word[16];
    unsigned long h;
    struct entry *e;
    size_t len;
    while (*p == ' ' || *p == '\n') p++;
    for (q = p; *q && *q != ' ' && *q != '\n'; q++) {}
    len = (size_t)(q - p);
    if (len == 0) break;
    memcpy(word, p, len);
    word[len] = 0;
    h = hash(word) % BUCKETS;
    for (e = table[h]; e && strcmp(e->word, word) != 0; e = e->next) {}
    if (!e) {
      e = malloc(sizeof *e);
      strcpy(e->word, word);
      e->count = 0;
      e->next = table[h];
      table[h] = e;
      distinct++;
    }
    e->count++;
    p = q;
  }
  all = malloc(sizeof *all * (size_t)distinct);
  for (i = 0, size = 0; i < BUCKETS; i++) {
    struct entry *e;
    for (e = table[i]; e; e = e->next) all[size++] = e;
  }
  qsort(all, (size_t)distinct, sizeof *all, by_count);
  printf("%ld words, %ld distinct\n", words, distinct);
  for (i = 0; i < 5 && i < distinct; i++) printf("%s %ld\n", all[i]->word, all[i]->count);
  return 0;
}
