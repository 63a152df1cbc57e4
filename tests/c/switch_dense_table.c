/* Large dense switches (the shape compilers turn into jump tables) inside loops: an opcode
   decoder with 32 cases and a character classifier switching on every printable class. */
#include <stdio.h>

static unsigned step(unsigned op, unsigned acc) {
  switch (op & 31) {
  case 0: return acc + 1;
  case 1: return acc - 1;
  case 2: return acc * 3;
  case 3: return acc ^ 0x5555;
  case 4: return acc << 1;
  case 5: return acc >> 1;
  case 6: return acc | 0x100;
  case 7: return acc & 0xFFFF;
  case 8: return ~acc;
  case 9: return acc + 1000;
  case 10: return acc * 7 + 3;
  case 11: return acc / 3;
  case 12: return acc % 1009;
  case 13: return acc + op;
  case 14: return acc - op;
  case 15: return acc ^ (acc >> 7);
  case 16: return acc + 16;
  case 17: return acc * 17;
  case 18: return acc ^ 18;
  case 19: return acc - 19;
  case 20: return (acc << 3) | (acc >> 29);
  case 21: return acc + (acc >> 2);
  case 22: return acc & ~0xFu;
  case 23: return acc | 23;
  case 24: return acc * 24 + 1;
  case 25: return acc / 5 + 25;
  case 26: return acc % 26 + acc;
  case 27: return acc ^ 0xFFFFFFFFu;
  case 28: return acc + 28;
  case 29: return acc - (acc >> 4);
  case 30: return acc * 30;
  case 31: return acc ^ (acc << 5);
  }
  return 0; /* unreachable: every value of op & 31 has a case */
}

static char classify(char c) {
  switch (c) {
  case '0': case '1': case '2': case '3': case '4':
  case '5': case '6': case '7': case '8': case '9':
    return 'd';
  case 'a': case 'e': case 'i': case 'o': case 'u':
  case 'A': case 'E': case 'I': case 'O': case 'U':
    return 'v';
  case ' ': case '\t': case '\n':
    return 's';
  case '.': case ',': case ';': case ':': case '!': case '?':
    return 'p';
  case '(': case ')': case '[': case ']': case '{': case '}':
    return 'b';
  default:
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ? 'c' : 'o';
  }
}

int main(void) {
  unsigned acc = 12345;
  for (unsigned i = 0; i < 5000; i++) acc = step(i * 2654435761u >> 7, acc);
  printf("acc %u\n", acc);
  const char *text = "Switch (dense) tables: 32 cases, 10 digits; vowels & consonants! [ok] {x=1}?";
  int counts[128] = {0};
  for (const char *p = text; *p; p++) counts[(unsigned char)classify(*p)]++;
  const char *kinds = "dvspbco";
  for (const char *k = kinds; *k; k++) printf("%c:%d ", *k, counts[(unsigned char)*k]);
  printf("\n");
  return (int)(acc % 256);
}
