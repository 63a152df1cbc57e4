/* GNU case ranges wider than 65,536 values (gcc's pr34154 has one of 9e18):
   c2ast tests such a range before the switch and jumps to its statement;
   narrower ranges are one case per value. Signed, unsigned and 64-bit
   switches, ranges beside cases and default, fall-through into and out of
   a range, a range in a nested switch. */
#include <stdio.h>

static int classify(long long v) {
  switch (v) {
  case -9000000000000000000LL ... -1000001: return -2;
  case -1000000 ... -1: return -1;
  case 0: return 0;
  case 1 ... 99999: return 1;
  case 100000 ... 9000000000000000000LL: return 2;
  default: return 9;
  }
}

static int digits(unsigned long long v) {
  switch (v) {
  case 1000000000000000000ULL ... 9999999999999999999ULL: return 19;
  case 0 ... 9: return 1;
  default: return 20;
  }
}

static int fall(unsigned v) {
  int r = 0;
  switch (v) {
  case 5: r += 1; /* fall through */
  case 100000 ... 4000000000u: r += 10; /* fall through */
  case 7: r += 100; break;
  case 8 ... 9: r += 1000; break;
  }
  return r;
}

static int nested(int a, int b) {
  int r = 0;
  switch (a) {
  case 0 ... 200000:
    switch (b) {
    case -300000 ... -1: r = 1; break;
    default: r = 2; break;
    }
    r += 10;
    break;
  case 300000 ... 2000000000: r = 3; break;
  }
  return r;
}

int main(void) {
  long long values[] = {-9000000000000000000LL, -5000000, -1000000, -1, 0, 1, 99999, 100000,
                        123456789012LL, 9000000000000000000LL, 9100000000000000000LL};
  for (unsigned i = 0; i < sizeof values / sizeof values[0]; ++i)
    printf("classify(%lld) = %d\n", values[i], classify(values[i]));
  unsigned long long big[] = {0, 9, 10, 999999999999999999ULL, 1000000000000000000ULL, 18446744073709551615ULL};
  for (unsigned i = 0; i < sizeof big / sizeof big[0]; ++i) printf("digits(%llu) = %d\n", big[i], digits(big[i]));
  unsigned f[] = {5, 7, 8, 100000, 3999999999u, 4000000001u};
  for (unsigned i = 0; i < sizeof f / sizeof f[0]; ++i) printf("fall(%u) = %d\n", f[i], fall(f[i]));
  printf("nested: %d %d %d %d %d\n", nested(5, -2), nested(200000, 3), nested(300001, 0), nested(6000, 0),
         nested(-1, -1));
  return 0;
}
