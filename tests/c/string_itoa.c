/* Number to text in any base (2..36), including negative values and the most negative long long. */
#include <stdio.h>

static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

static char *utoa_base(unsigned long long v, int base, char *out) {
  char tmp[72];
  int n = 0;
  do {
    tmp[n++] = digits[v % (unsigned)base];
    v /= (unsigned)base;
  } while (v);
  for (int i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
  out[n] = 0;
  return out;
}

static char *itoa_base(long long v, int base, char *out) {
  if (v < 0) {
    out[0] = '-';
    utoa_base(0ull - (unsigned long long)v, base, out + 1);
  } else {
    utoa_base((unsigned long long)v, base, out);
  }
  return out;
}

static long long atoi_base(const char *s, int base) {
  int neg = 0;
  unsigned long long v = 0;
  if (*s == '-') { neg = 1; s++; }
  for (; *s; s++) {
    int d = 0;
    while (digits[d] != *s) d++;
    v = v * (unsigned)base + (unsigned)d;
  }
  return neg ? (long long)(0ull - v) : (long long)v;
}

int main(void) {
  char buf[80];
  long long tests[] = {0, 1, -1, 255, -255, 1000000, 2147483647, -2147483647 - 1,
                       9223372036854775807LL, -9223372036854775807LL - 1};
  int bases[] = {2, 8, 10, 16, 36};
  int roundtrips = 0;
  for (int i = 0; i < 10; i++) {
    printf("%lld:", tests[i]);
    for (int b = 0; b < 5; b++) {
      itoa_base(tests[i], bases[b], buf);
      printf(" %s", buf);
      roundtrips += atoi_base(buf, bases[b]) == tests[i];
    }
    printf("\n");
  }
  printf("%s\n", utoa_base(18446744073709551615ull, 2, buf));
  printf("roundtrips %d\n", roundtrips);
  return roundtrips;
}
