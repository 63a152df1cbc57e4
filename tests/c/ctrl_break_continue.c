/* break and continue in every loop kind, in nested loops, and inside switch within loops. */
#include <stdio.h>

int main(void) {
  int total = 0;
  /* continue in for skips the body but runs the step. */
  for (int i = 0; i < 20; i++) {
    if (i % 3 == 0) continue;
    if (i > 15) break;
    total += i;
  }
  printf("for: %d\n", total);
  /* continue in while jumps to the condition. */
  int i = 0, odd = 0;
  while (i < 20) {
    i++;
    if (i % 2 == 0) continue;
    odd += i;
  }
  printf("while: %d\n", odd);
  /* continue in do-while jumps to the condition too. */
  int j = 0, cnt = 0;
  do {
    j++;
    if (j == 5) continue;
    cnt++;
  } while (j < 10);
  printf("do: %d\n", cnt);
  /* break leaves only the innermost loop. */
  int pairs = 0;
  for (int a = 0; a < 10; a++)
    for (int b = 0; b < 10; b++) {
      if (b > a) break;
      if ((a + b) % 4 == 0) continue;
      pairs++;
    }
  printf("pairs: %d\n", pairs);
  /* break inside switch inside a loop leaves the switch; continue continues the loop. */
  int vowels = 0, others = 0, spaces = 0;
  const char *text = "break and continue in a switch";
  for (const char *p = text; *p; p++) {
    switch (*p) {
    case ' ':
      spaces++;
      continue;
    case 'a': case 'e': case 'i': case 'o': case 'u':
      vowels++;
      break;
    default:
      others++;
      break;
    }
    if (vowels > 6) break;
  }
  printf("vowels %d others %d spaces %d\n", vowels, others, spaces);
  /* Search with a flag vs. search with break. */
  int primes_found = 0;
  for (int n = 2; n < 200; n++) {
    int d;
    for (d = 2; d * d <= n; d++)
      if (n % d == 0) break;
    if (d * d > n) primes_found++;
  }
  printf("primes below 200: %d\n", primes_found);
  /* An infinite loop left by break. */
  unsigned x = 1;
  int rounds = 0;
  for (;;) {
    x = x * 5 + 1;
    rounds++;
    if ((x & 0xFF) == 0x1F || rounds > 1000) break;
  }
  printf("rounds %d x %u\n", rounds, x);
  return total + primes_found;
}
