/* Global and static arrays: zero-initialized, partially initialized, nested, of pointers. */
#include <stdio.h>

int zeros[100];
int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
long partial[6] = {1, -1};
static unsigned char bytes[] = {0xDE, 0xAD, 0xBE, 0xEF};
static short matrix[3][3] = {{1, 0, 0}, {0, 1}, {[2] = 1}};
const char *names[] = {"zero", "one", "two", "three"};
static int *prime_ptrs[3] = {&primes[0], &primes[4], primes + 9};
char message[32] = "global message";
static const int *const first_last[2] = {primes, &primes[9]};
long long wide[3] = {0x7FFFFFFFFFFFFFFFLL, -0x7FFFFFFFFFFFFFFFLL - 1, 42};

static int counter(void) {
  static int calls[4];
  static int next;
  calls[next % 4]++;
  next++;
  return calls[0] * 1000 + calls[1] * 100 + calls[2] * 10 + calls[3];
}

int main(void) {
  int i, s = 0;
  for (i = 0; i < 100; i++) s += zeros[i];
  printf("zeros sum %d\n", s);
  s = 0;
  for (i = 0; i < 10; i++) s += primes[i];
  printf("primes sum %d\n", s);
  for (i = 0; i < 6; i++) printf("%ld ", partial[i]);
  printf("\n%02X%02X%02X%02X\n", bytes[0], bytes[1], bytes[2], bytes[3]);
  for (i = 0; i < 9; i++) printf("%d", matrix[i / 3][i % 3]);
  printf("\n");
  for (i = 0; i < 4; i++) printf("%s ", names[i]);
  printf("\n");
  printf("prime_ptrs %d %d %d\n", *prime_ptrs[0], *prime_ptrs[1], *prime_ptrs[2]);
  printf("first_last %d %d span %d\n", *first_last[0], *first_last[1],
         (int)(first_last[1] - first_last[0]));
  printf("%s (sizeof %d)\n", message, (int)sizeof message);
  printf("wide %lld %lld %lld\n", wide[0], wide[1], wide[2]);
  /* Globals are modifiable and keep their values. */
  zeros[50] = 5;
  primes[0] = 1;
  message[0] = 'G';
  names[1] = "uno";
  printf("%d %d %s %s\n", zeros[50], primes[0], message, names[1]);
  int c = 0;
  for (i = 0; i < 6; i++) c = counter();
  printf("counter %d\n", c);
  return s;
}
