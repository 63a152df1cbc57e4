/* Tokenizing in place (a strtok-like function written here, with saved state in a struct),
   key=value parsing, and trimming whitespace. */
#include <stdio.h>
#include <string.h>

struct tokenizer { char *next; };

static int is_sep(char c, const char *seps) {
  for (; *seps; seps++) if (*seps == c) return 1;
  return 0;
}

static char *token(struct tokenizer *t, const char *seps) {
  char *s = t->next;
  if (!s) return 0;
  while (*s && is_sep(*s, seps)) s++;
  if (!*s) { t->next = 0; return 0; }
  char *start = s;
  while (*s && !is_sep(*s, seps)) s++;
  if (*s) { *s = 0; t->next = s + 1; }
  else t->next = 0;
  return start;
}

static char *trim(char *s) {
  while (*s == ' ') s++;
  char *end = s + strlen(s);
  while (end > s && end[-1] == ' ') *--end = 0;
  return s;
}

int main(void) {
  char line[] = "  name = pipe ; level=son;  passes= 4 ;; empty= ; verbose  ";
  struct tokenizer outer = {line};
  char *item;
  int pairs = 0, total_len = 0;
  while ((item = token(&outer, ";")) != 0) {
    char *eq = item;
    while (*eq && *eq != '=') eq++;
    if (!*eq) {
      printf("flag [%s]\n", trim(item));
      continue;
    }
    *eq = 0;
    char *key = trim(item), *value = trim(eq + 1);
    printf("key [%s] value [%s]\n", key, value);
    pairs++;
    total_len += (int)(strlen(key) + strlen(value));
  }
  char words[] = "split,these;words by,,several;;separators";
  struct tokenizer t = {words};
  int n = 0;
  while ((item = token(&t, ",; ")) != 0) printf("%d:%s ", n++, item);
  printf("\n");
  char nothing[] = ";;;";
  struct tokenizer e = {nothing};
  printf("empty gives null: %d\n", token(&e, ";") == 0);
  return pairs * 10 + n + total_len;
}
