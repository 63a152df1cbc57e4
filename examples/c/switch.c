/* A switch with fall-through and a default in the middle. */
#include <stdio.h>

static int classify(int c) {
  int score = 0;
  switch (c) {
    case 'a':
    case 'e':
      score += 10;
      /* fall through */
    case 'i':
      score += 1;
      break;
    default:
      score = -1;
      break;
    case 'z':
      score = 26;
  }
  return score;
}

int main(void) {
  const char *word = "azimuth";
  int total = 0;
  for (int k = 0; word[k] != 0; k++) total += classify(word[k]);
  printf("total = %d\n", total);
  return 0;
}
