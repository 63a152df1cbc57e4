/* Walking strings with pointers: length, copy, concatenation, search, tokenizing by hand. */
#include <stdio.h>

static int my_strlen(const char *s) {
  const char *p = s;
  while (*p) p++;
  return (int)(p - s);
}

static char *my_strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d++ = *s++)) {
  }
  return r;
}

static char *my_strcat(char *d, const char *s) {
  my_strcpy(d + my_strlen(d), s);
  return d;
}

static const char *my_strchr(const char *s, int c) {
  for (; *s; s++)
    if (*s == (char)c) return s;
  return c == 0 ? s : 0;
}

static const char *my_strstr(const char *h, const char *n) {
  if (!*n) return h;
  for (; *h; h++) {
    const char *a = h, *b = n;
    while (*a && *b && *a == *b) { a++; b++; }
    if (!*b) return h;
  }
  return 0;
}

static int count_words(const char *s) {
  int n = 0, in = 0;
  for (; *s; s++) {
    int space = *s == ' ' || *s == '\t' || *s == '\n';
    if (!space && !in) n++;
    in = !space;
  }
  return n;
}

int main(void) {
  char buf[64];
  my_strcpy(buf, "sea");
  my_strcat(buf, " of ");
  my_strcat(buf, "nodes");
  printf("%s (%d)\n", buf, my_strlen(buf));
  const char *o = my_strchr(buf, 'o');
  printf("first o at %d, z found %d, nul at %d\n", (int)(o - buf), my_strchr(buf, 'z') != 0,
         (int)(my_strchr(buf, 0) - buf));
  const char *hay = "the cat sat on the mat with the hat";
  int hits = 0;
  for (const char *p = hay; (p = my_strstr(p, "at")) != 0; p++) hits++;
  printf("'at' occurs %d times, 'the' first at %d\n", hits, (int)(my_strstr(hay, "the") - hay));
  printf("words %d %d %d\n", count_words(hay), count_words("  lead\tand trail  "), count_words(""));
  /* Upper-case in place, walking with a pointer. */
  for (char *p = buf; *p; p++)
    if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
  printf("%s\n", buf);
  /* Reverse in place with two pointers. */
  char *l = buf, *r = buf + my_strlen(buf) - 1;
  while (l < r) { char t = *l; *l++ = *r; *r-- = t; }
  printf("%s\n", buf);
  return hits * 10 + count_words(hay);
}
