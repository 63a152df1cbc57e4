/* A chained hash table of malloc'd string keys: insert/update, lookup, delete, resize, and a
   word-frequency count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry { char *key; int value; struct entry *next; };
struct table { struct entry **buckets; unsigned nbuckets, size; };

static unsigned hash(const char *s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static void init(struct table *t, unsigned n) {
  t->buckets = calloc(n, sizeof *t->buckets);
  t->nbuckets = n;
  t->size = 0;
}

static void resize(struct table *t) {
  struct table bigger;
  init(&bigger, t->nbuckets * 2);
  for (unsigned i = 0; i < t->nbuckets; i++)
    for (struct entry *e = t->buckets[i], *next; e; e = next) {
      next = e->next;
      unsigned b = hash(e->key) % bigger.nbuckets;
      e->next = bigger.buckets[b];
      bigger.buckets[b] = e;
    }
  free(t->buckets);
  bigger.size = t->size;
  *t = bigger;
}

static int *slot(struct table *t, const char *key) {
  unsigned b = hash(key) % t->nbuckets;
  for (struct entry *e = t->buckets[b]; e; e = e->next)
    if (strcmp(e->key, key) == 0) return &e->value;
  if (t->size + 1 > t->nbuckets * 3 / 4) { resize(t); b = hash(key) % t->nbuckets; }
  struct entry *e = malloc(sizeof *e);
  e->key = malloc(strlen(key) + 1);
  strcpy(e->key, key);
  e->value = 0;
  e->next = t->buckets[b];
  t->buckets[b] = e;
  t->size++;
  return &e->value;
}

static int erase(struct table *t, const char *key) {
  struct entry **link = &t->buckets[hash(key) % t->nbuckets];
  for (; *link; link = &(*link)->next)
    if (strcmp((*link)->key, key) == 0) {
      struct entry *dead = *link;
      *link = dead->next;
      free(dead->key);
      free(dead);
      t->size--;
      return 1;
    }
  return 0;
}

int main(void) {
  const char *text = "the quick brown fox jumps over the lazy dog the fox barks and the dog "
                     "sleeps while a quick cat watches the lazy fox and the brown dog";
  struct table t;
  init(&t, 4);
  char word[32];
  for (const char *p = text; *p;) {
    int n = 0;
    while (*p && *p != ' ') word[n++] = *p++;
    word[n] = 0;
    while (*p == ' ') p++;
    (*slot(&t, word))++;
  }
  printf("distinct %u buckets %u\n", t.size, t.nbuckets);
  const char *probe[] = {"the", "fox", "dog", "quick", "cat", "zebra"};
  for (int i = 0; i < 6; i++) printf("%s: %d\n", probe[i], *slot(&t, probe[i]));
  int first = erase(&t, "the");
  int again = erase(&t, "the");
  printf("erase the %d, erase again %d, size %u\n", first, again, t.size);
  int longest = 0;
  for (unsigned i = 0; i < t.nbuckets; i++) {
    int len = 0;
    for (struct entry *e = t.buckets[i]; e; e = e->next) len++;
    if (len > longest) longest = len;
  }
  printf("longest chain %d\n", longest);
  for (unsigned i = 0; i < t.nbuckets; i++)
    while (t.buckets[i]) erase(&t, t.buckets[i]->key);
  free(t.buckets);
  return (int)t.size + longest;
}
