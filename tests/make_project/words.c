/* words.c - splits text into words and hands each to a sink (part of libwords). */
#include <ctype.h>
#include "words.h"

int count_words(const char *text, void (*sink)(const char *, int)) {
  int n = 0;
  const char *p = text;
  while (*p) {
    while (*p && !isalpha((unsigned char)*p)) p++;
    const char *start = p;
    while (*p && isalpha((unsigned char)*p)) p++;
    if (p > start) { sink(start, (int)(p - start)); n++; }
  }
  return n;
}
