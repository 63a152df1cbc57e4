/* switch: dense and sparse cases, negative cases, cases from enums and constant expressions,
   switch on char, unsigned, long long; no matching case and no default. */
#include <stdio.h>

enum op { OP_ADD = 1, OP_SUB, OP_MUL = 10, OP_NEG = -1 };

static int dense(int x) {
  switch (x) {
  case 0: return 10;
  case 1: return 11;
  case 2: return 12;
  case 3: return 13;
  case 4: return 14;
  case 5: return 15;
  default: return -1;
  }
}

static int sparse(long long x) {
  switch (x) {
  case -1000000000000LL: return 1;
  case -7: return 2;
  case 0: return 3;
  case 1 << 20: return 4;
  case 0x7FFFFFFFFFFFFFFFLL: return 5;
  }
  return 0;
}

static int apply(enum op o, int a, int b) {
  switch (o) {
  case OP_ADD: return a + b;
  case OP_SUB: return a - b;
  case OP_MUL: return a * b;
  case OP_NEG: return -a;
  }
  return 0;
}

static int kind(char c) {
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
  case 'y': return 2;
  default: return 0;
  }
}

int main(void) {
  int s = 0;
  for (int i = -1; i <= 6; i++) { printf("%d ", dense(i)); s += dense(i); }
  printf("\n");
  long long probes[] = {-1000000000000LL, -7, 0, 1 << 20, 0x7FFFFFFFFFFFFFFFLL, 5, -8};
  for (int i = 0; i < 7; i++) { printf("%d ", sparse(probes[i])); s += sparse(probes[i]); }
  printf("\n");
  printf("%d %d %d %d\n", apply(OP_ADD, 7, 3), apply(OP_SUB, 7, 3), apply(OP_MUL, 7, 3), apply(OP_NEG, 7, 3));
  unsigned u = 0xFFFFFFFFu;
  switch (u) {
  case 0xFFFFFFFFu: printf("max unsigned\n"); break;
  case 0: printf("zero\n"); break;
  }
  /* Switch with no matching case and no default does nothing. */
  switch (s) {
  case -12345: printf("never\n");
  }
  printf("kind %d %d %d\n", kind('o'), kind('y'), kind('Q'));
  return s;
}
