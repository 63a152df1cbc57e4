/* Signed and unsigned division and remainder by constant powers of two
   (positive and negative, 2^0 to 2^62, and INT_MIN and LLONG_MIN), and
   remainder tests against zero, over dividends at the limits: each is
   lowered without a division instruction, so every rounding bias and sign
   case must match the machine's idiv. Relies on two's complement wrapping
   of the checksum (unsigned arithmetic). The dividends are in writable
   arrays so that no optimizer folds the divisions away. */
#include <limits.h>
#include <stdio.h>

static int xs[] = {INT_MIN, INT_MIN + 1, -1000001, -65536, -9, -8, -7, -5, -4, -3, -2, -1,
                         0, 1, 2, 3, 4, 5, 7, 8, 9, 65535, 1000001, INT_MAX - 1, INT_MAX};
static long long ls[] = {LLONG_MIN, LLONG_MIN + 1, -4294967297LL, -4294967296LL, -9, -8, -7, -1,
                               0, 1, 7, 8, 9, 4294967296LL, 4294967297LL, LLONG_MAX - 1, LLONG_MAX};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MIX(h, v) ((h) = (h) * 1000003u ^ (unsigned)(v))

#define INT_CASE(D)                                                  \
  for (int i = 0; i < N(xs); i++) {                                  \
    int x = xs[i];                                                   \
    if (!((D) == -1 && x == INT_MIN)) {                              \
      MIX(h, x / (D));                                               \
      MIX(h, x % (D));                                               \
      MIX(h, x % (D) == 0);                                          \
      MIX(h, x % (D) != 0);                                          \
    }                                                                \
    MIX(h, (unsigned)x / (unsigned)(D));                             \
    MIX(h, (unsigned)x % (unsigned)(D));                             \
  }

#define LONG_CASE(D)                                                 \
  for (int i = 0; i < N(ls); i++) {                                  \
    long long x = ls[i];                                             \
    if (!((D) == -1 && x == LLONG_MIN)) {                            \
      MIX(h, x / (D));                                               \
      MIX(h, (x / (D)) >> 32);                                       \
      MIX(h, x % (D));                                               \
      MIX(h, x % (D) == 0);                                          \
    }                                                                \
  }

int main(void) {
  unsigned h = 0;
  INT_CASE(1) INT_CASE(-1) INT_CASE(2) INT_CASE(-2) INT_CASE(4) INT_CASE(-4) INT_CASE(8) INT_CASE(-8)
  INT_CASE(16) INT_CASE(1024) INT_CASE(-1024) INT_CASE(65536) INT_CASE(1 << 30) INT_CASE(-(1 << 30))
  INT_CASE(INT_MIN)
  printf("int %u\n", h);
  h = 0;
  LONG_CASE(2LL) LONG_CASE(-2LL) LONG_CASE(8LL) LONG_CASE(-8LL) LONG_CASE(4294967296LL)
  LONG_CASE(-4294967296LL) LONG_CASE(1LL << 62) LONG_CASE(LLONG_MIN)
  printf("long %u\n", h);
  int even = 0, odd = 0;
  for (int x = -50; x <= 50; x++) {
    if (x % 2 == 0) even++;
    if (x % 4 != 0) odd++;
  }
  printf("even %d notmul4 %d\n", even, odd);
  return 0;
}
