/* Plain char is signed on x86-64 (the ABI): gcc and our toolchain both follow it.
   This program tests that deliberately, next to explicit signed/unsigned char. */
#include <stdio.h>

static int classify(char c) {
  if (c < 0) return -1;
  if (c == 0) return 0;
  return 1;
}

int main(void) {
  char c = (char)0xE9;
  signed char sc = (signed char)0xE9;
  unsigned char uc = 0xE9;
  const char *s = "caf\xe9!";
  int i, negatives = 0, sum = 0;

  printf("char %d signed %d unsigned %d\n", c, sc, uc);
  printf("classify: %d %d %d\n", classify(c), classify('a'), classify(0));
  for (i = 0; s[i]; i++) {
    if (s[i] < 0) negatives++;
    sum += s[i];
  }
  printf("negatives %d sum %d\n", negatives, sum);
  /* Indexing a table safely with unsigned char. */
  int table[256];
  for (i = 0; i < 256; i++) table[i] = i * 2;
  sum = 0;
  for (i = 0; s[i]; i++) sum += table[(unsigned char)s[i]];
  printf("table sum %d\n", sum);
  /* char arithmetic promotes to int and sign-extends. */
  char hi = 127;
  hi++;
  printf("127+1 as char %d\n", hi);
  char lo = -128;
  lo--;
  printf("-128-1 as char %d\n", lo);
  /* Converting char to unsigned int. */
  unsigned int u = (unsigned int)c;
  printf("as unsigned %u\n", u);
  /* Comparing char with unsigned char. */
  printf("c == uc: %d, (unsigned char)c == uc: %d\n", c == uc, (unsigned char)c == uc);
  /* Character arithmetic. */
  char letters[27];
  for (i = 0; i < 26; i++) letters[i] = (char)('a' + i);
  letters[26] = 0;
  printf("%s\n", letters);
  for (i = 0; i < 26; i++) letters[i] = (char)(letters[i] - 'a' + 'A');
  printf("%s\n", letters);
  printf("'z' - 'a' = %d, '0' + 7 = %c\n", 'z' - 'a', '0' + 7);
  printf("sizeof 'a' = %d, sizeof c = %d\n", (int)sizeof('a'), (int)sizeof c);
  return negatives * 10 + classify(c) + 5;
}
