/* table.c - a chained hash table of words (part of libwords). */
#include <stdlib.h>
#include <string.h>
#include "words.h"

static struct entry *buckets[TABLE_SIZE];

static unsigned hash(const char *w, int len) {
  unsigned h = 2166136261u;
  for (int i = 0; i < len; i++) h = (h ^ (unsigned char)w[i]) * 16777619u;
  return h % TABLE_SIZE;
}

struct entry *table_find(const char *word, int len) {
  for (struct entry *e = buckets[hash(word, len)]; e; e = e->next)
    if ((int)strlen(e->word) == len && memcmp(e->word, word, len) == 0) return e;
  return 0;
}

void table_add(const char *word, int len) {
  struct entry *e = table_find(word, len);
  if (e) { e->count++; return; }
  char *copy = malloc(len + 1);
  memcpy(copy, word, len);
  copy[len] = 0;
  e = malloc(sizeof *e);
  e->word = copy;
  e->count = 1;
  unsigned h = hash(word, len);
  e->next = buckets[h];
  buckets[h] = e;
}

int table_entries(struct entry **out, int max) {
  int n = 0;
  for (int b = 0; b < TABLE_SIZE; b++)
    for (struct entry *e = buckets[b]; e && n < max; e = e->next) out[n++] = e;
  return n;
}
