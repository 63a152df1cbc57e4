/* String literals: escapes, concatenation, embedded NULs, literals shared as globals and indexed directly. */
#include <stdio.h>
#include <string.h>

static const char *global_msg = "global " "literal";
static const char table[] = "0123456789abcdef";

int main(void) {
  const char *s = "tab\there\nnewline \\ backslash \"quote\" 'apos'";
  printf("%s\n", s);
  printf("len %d\n", (int)strlen(s));
  const char esc[] = "\a\b\f\n\r\t\v\\\'\"\?";
  for (int i = 0; i < (int)sizeof esc; i++) printf("%d ", esc[i]);
  printf("\n");
  const char hex[] = "\x41\x42\x43\x7e";
  const char oct[] = "\101\102\103\0\104";
  printf("%s %s sizeof oct %d strlen oct %d\n", hex, oct, (int)sizeof oct, (int)strlen(oct));
  printf("after nul: %s\n", oct + 4);
  const char *concat = "con" "cat" "en" "ation";
  printf("%s %d\n", concat, (int)strlen(concat));
  printf("%s\n", global_msg);
  /* Indexing a literal directly. */
  printf("%c%c%c\n", "xyz"[2], "xyz"[0], *(&"xyz"[1]));
  unsigned v = 0xBEEF;
  char out[9];
  for (int i = 7; i >= 0; i--) {
    out[i] = table[v & 15];
    v >>= 4;
  }
  out[8] = 0;
  printf("%s\n", out);
  /* Literal in a loop condition and compared character by character. */
  int n = 0;
  for (const char *p = "count these chars"; *p; p++)
    if (*p != ' ') n++;
  printf("non-space %d\n", n);
  printf("empty len %d sizeof \"\" %d\n", (int)strlen(""), (int)sizeof "");
  /* Line splice inside a literal via concatenation across lines. */
  const char *multi = "line one\n"
                      "line two\n"
                      "line three";
  puts(multi);
  /* Non-ASCII bytes. */
  const unsigned char *bytes = (const unsigned char *)"\xff\x80\x7f";
  printf("%u %u %u\n", bytes[0], bytes[1], bytes[2]);
  return n + (int)strlen(concat);
}
