/* Text processing: splitting words, greedy line wrapping to a width, full justification by
   distributing spaces, and centered headings. */
#include <stdio.h>
#include <string.h>

static const char *text =
    "The sea of nodes is a graph representation in which instructions float freely unless "
    "something pins them down; control and memory edges say what must happen in order, and "
    "everything else is scheduled late by a separate pass.";

static int split(const char *s, const char *words[], int lens[], int max) {
  int n = 0;
  while (*s && n < max) {
    while (*s == ' ') s++;
    if (!*s) break;
    words[n] = s;
    while (*s && *s != ' ') s++;
    lens[n] = (int)(s - words[n]);
    n++;
  }
  return n;
}

static void emit_justified(const char *words[], const int lens[], int from, int to, int width, int last) {
  int chars = 0;
  for (int i = from; i < to; i++) chars += lens[i];
  int gaps = to - from - 1, spaces = width - chars;
  printf("|");
  for (int i = from; i < to; i++) {
    printf("%.*s", lens[i], words[i]);
    if (i + 1 < to) {
      int pad = last ? 1 : spaces / gaps + (i - from < spaces % gaps);
      for (int k = 0; k < pad; k++) putchar(' ');
    }
  }
  int used = chars + (last ? gaps : (gaps ? spaces : 0));
  for (int k = used; k < width; k++) putchar(' ');
  printf("|\n");
}

static void center(const char *s, int width) {
  int len = (int)strlen(s), left = (width - len) / 2;
  printf("|%*s%s%*s|\n", left, "", s, width - len - left, "");
}

int main(void) {
  const char *words[64];
  int lens[64];
  int n = split(text, words, lens, 64);
  printf("%d words\n", n);
  int widths[] = {30, 42};
  int lines_total = 0;
  for (int w = 0; w < 2; w++) {
    int width = widths[w];
    center("-- wrapped --", width);
    int from = 0;
    while (from < n) {
      int to = from, len = lens[from];
      while (to + 1 < n && len + 1 + lens[to + 1] <= width) len += 1 + lens[++to];
      emit_justified(words, lens, from, to + 1, width, to + 1 == n);
      lines_total++;
      from = to + 1;
    }
  }
  return lines_total;
}
