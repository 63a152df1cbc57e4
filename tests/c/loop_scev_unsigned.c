/* Scalar evolution's trip counts at the edges of the integer types: unsigned
   counters that wrap before they meet the bound (`!=` with an odd step),
   steps that would step past UINT_MAX or INT_MAX after the last trip (the
   optimizer must not compute a count then), narrow counters, and loops that
   count down through zero in unsigned arithmetic. */
#include <stdio.h>
#include <limits.h>

static unsigned ne_odd(unsigned from, unsigned to) {
  unsigned trips = 0;
  for (unsigned i = from; i != to; i += 3) trips++;  /* wraps; 3 is odd, so it meets `to` */
  return trips;
}

static unsigned char narrow(unsigned char from) {
  unsigned char c, n = 0;
  for (c = from; c != 10; c++) n++;  /* wraps through 255 -> 0 */
  return (unsigned char)(n + c);
}

static unsigned near_max(unsigned start) {
  unsigned n = 0, i;
  for (i = start; i < UINT_MAX - 3; i += 4) n++;  /* the last value + 4 cannot pass UINT_MAX: counted */
  return n * 10u + (i & 7u);
}

static unsigned past_max(unsigned start) {
  unsigned n = 0, i;
  for (i = start; i < UINT_MAX - 1 && n < 1000; i += 5) n++;  /* i may wrap: the second test stops it */
  return n + i;
}

static int signed_edge(int start) {
  int n = 0, i;
  for (i = start; i <= INT_MAX - 7; i += 7) n++;  /* INT_MAX - 7 + 7 does not overflow */
  return n;
}

static unsigned count_down(unsigned n) {
  unsigned k = 0, i;
  for (i = n; i > 0; i--) k += 2;
  return k + i;
}

static unsigned short even_step(unsigned short from) {
  unsigned short s, n = 0;
  for (s = from; s != 40000; s += 4) n++;  /* from is even: it meets 40000 after wrapping */
  return (unsigned short)(n ^ s);
}

static unsigned long long u64(unsigned long long n) {
  unsigned long long x = 1, i;
  for (i = 0; i <= n; i++) x += i * 2 + 1;
  return x;
}

int main(void) {
  unsigned vals[] = {0u, 1u, 7u, 4000000000u, UINT_MAX - 9u};
  unsigned check = 0;
  for (int k = 0; k < 5; k++) {
    unsigned v = vals[k];
    unsigned a = ne_odd(v, v + 30u);
    unsigned b = ne_odd(v - 600u, v);
    unsigned c = narrow((unsigned char)(v + 3u));
    unsigned d = near_max(UINT_MAX - 40u + (v & 7u));
    unsigned e = past_max(UINT_MAX - 30u + (v & 3u));
    int f = signed_edge(INT_MAX - 60 - (int)(v & 15u));
    unsigned g = count_down(v & 255u);
    unsigned h = even_step((unsigned short)((k & 1) ? 40000u - 4u * (v & 1023u) : 40004u + 4u * (v & 7u)));
    unsigned long long i = u64(v & 63u);
    printf("%u %u %u %u %u %d %u %u %llu\n", a, b, c, d, e, f, g, h, i);
    check = check * 33u + a + b + c + d + e + (unsigned)f + g + h + (unsigned)i;
  }
  printf("check %u\n", check);
  return (int)(check % 256u);
}
