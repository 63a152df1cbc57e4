/* main.c - counts the words of a text with libwords and prints them sorted
   by count, then alphabetically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "words.h"

static const char *text =
    "the quick brown fox jumps over the lazy dog and the dog sleeps while "
    "the fox runs over the hill and over the river to the quick brown hen";

static int by_count(const void *a, const void *b) {
  const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
  if (x->count != y->count) return y->count - x->count;
  return strcmp(x->word, y->word);
}

int main(void) {
  int total = count_words(text, table_add);
  struct entry *all[128];
  int n = table_entries(all, 128);
  qsort(all, n, sizeof all[0], by_count);
  printf("%d words, %d distinct\n", total, n);
  for (int i = 0; i < n; i++) printf("%3d %s\n", all[i]->count, all[i]->word);
  return total == 29 ? 0 : 1;
}
