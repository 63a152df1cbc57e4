/* Pseudo-random generators: xorshift32, xorshift64*, a linear congruential generator and a shuffle. */
#include <stdio.h>

struct rng { unsigned long long state; };

static unsigned int xorshift32(unsigned int *s) {
  unsigned int x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static unsigned long long xorshift64star(struct rng *r) {
  unsigned long long x = r->state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

static unsigned int lcg(unsigned int *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7FFF;
}

static void shuffle(int *a, int n, struct rng *r) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(xorshift64star(r) % (unsigned long long)(i + 1));
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

int main(void) {
  unsigned int s32 = 2463534242u;
  for (int i = 0; i < 5; i++) printf("xorshift32: %u\n", xorshift32(&s32));
  struct rng r = {88172645463325252ull};
  for (int i = 0; i < 5; i++) printf("xorshift64*: %llu\n", xorshift64star(&r));
  unsigned int seed = 1;
  for (int i = 0; i < 5; i++) printf("lcg: %u\n", lcg(&seed));
  int deck[20];
  for (int i = 0; i < 20; i++) deck[i] = i;
  shuffle(deck, 20, &r);
  int check = 0;
  for (int i = 0; i < 20; i++) {
    printf("%d ", deck[i]);
    check += deck[i] * i;
  }
  printf("\n");
  /* Histogram of dice rolls. */
  int hist[6] = {0};
  for (int i = 0; i < 6000; i++) hist[lcg(&seed) % 6]++;
  for (int i = 0; i < 6; i++) printf("face %d: %d\n", i + 1, hist[i]);
  return check % 256;
}
