/* Scalar evolution on nested counting loops (sonopt exit-values): loops that
   only count fold to closed forms and go; bounds are parameters, so the trip
   counts are expressions (n > 0 ? n : 0), and a negative bound runs nothing.
   Sums of the counter are second-order recurrences ({0,+,0,+,1}), also in a
   wider type (long long s += int i); unsigned accumulators wrap on purpose
   (defined). */
#include <stdio.h>

static int six_nested(int n) {
  int a, b, c, d, e, f, x = 0;
  for (a = 0; a < n; a++)
    for (b = 0; b < n; b++)
      for (c = 0; c < n; c++)
        for (d = 0; d < n; d++)
          for (e = 0; e < n; e++)
            for (f = 0; f < n; f++) x++;
  return x;
}

static unsigned sums(int lo, int hi, unsigned *sq) {
  unsigned s = 0, t = 7;
  int i;
  for (i = lo; i < hi; i++) {
    s += (unsigned)i;
    t = t * 1u + (unsigned)i * 3u + 5u;
  }
  *sq = t;
  return s + (unsigned)i;
}

static unsigned wrapping(unsigned n) {
  unsigned x = 0xfffffff0u;
  for (unsigned i = 0; i < n; i++) x += 0x9e3779b9u;
  return x;
}

static long long wide(long long n) {
  long long acc = 5;
  for (long long i = n; i > -3; i -= 2) acc += i;
  return acc;
}

static int stepping(int from, int to) {
  int k = 0, i;
  for (i = from; i < to; i += 3) k += 2;
  return k * 1000 + i;
}

static int down(int n) {
  int left = 100, i;
  for (i = n; i >= 0; i--) left -= 1;
  return left + i;
}

static long long wide_sum(int lo, int hi) {
  long long s = 1;
  for (int i = lo; i < hi; i++) s += i;  /* sext(i): i does not wrap below hi */
  return s;
}

static int triangle(int n) {
  int t = 0;
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++) t++;
  return t;
}

int main(void) {
  int bounds[] = {-4, 0, 1, 3, 5};
  unsigned check = 0;
  for (int k = 0; k < 5; k++) {
    int n = bounds[k];
    unsigned sq = 0;
    unsigned s = sums(n, 2 * n + 7, &sq);
    printf("n=%d six=%d sums=%u sq=%u wrap=%u wide=%lld step=%d down=%d tri=%d\n", n, six_nested(n), s, sq,
           wrapping((unsigned)(n + 4) * 1000u), wide(n * 7), stepping(n, 40), down(n), triangle(n));
    printf("wide_sum=%lld\n", wide_sum(n * 1000, n * 1000 + 5000));
    check = check * 31u + s + sq + (unsigned)six_nested(n) + (unsigned)wide_sum(n, 3 * n + 9);
  }
  printf("check %u\n", check);
  return (int)(check % 256u);
}
