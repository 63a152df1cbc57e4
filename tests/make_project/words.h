/* words.h - the interface of libwords: a word-count hash table. */
#ifndef WORDS_H
#define WORDS_H
struct entry { const char *word; int count; struct entry *next; };
void table_add(const char *word, int len);
struct entry *table_find(const char *word, int len);
int table_entries(struct entry **out, int max);
int count_words(const char *text, void (*sink)(const char *, int));
#endif
