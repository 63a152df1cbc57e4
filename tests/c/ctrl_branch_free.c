/* Small conditionals that sonopt -O2 turns into selects (cmov): a bitwise
   CRC step, running maxima and minima, absolute differences, clamping,
   choices between pointers, chars and longs, and two values swapped on one
   condition; beside them, conditionals that must stay branches (a call on
   one side, doubles, a side too costly to run always). Data that makes
   every branch go both ways. */
#include <stdio.h>

static unsigned crc32_bits(const unsigned char *p, int n) {
  unsigned c = ~0u;
  for (int i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  }
  return ~c;
}

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static long absdiff(long a, long b) { return a < b ? b - a : a - b; }
static const char *name_of(int v) { return v & 1 ? "odd" : "even"; }
static signed char sat8(int v) { signed char r = (signed char)v; if (v > 127) r = 127; if (v < -128) r = -128; return r; }

static int calls;
static int side(int v) { calls++; return v * 3; }

int main(void) {
  unsigned char buf[64];
  int data[50];
  for (int i = 0; i < 64; i++) buf[i] = (unsigned char)(i * 29 + 11);
  for (int i = 0; i < 50; i++) data[i] = (i * 37 + i * i * 13) % 203 - 100;
  int mx = data[0], mn = data[0], sum_clamped = 0, with_call = 0;
  long diffs = 0, a = 5, b = 9;
  unsigned umax = 0;
  double dmax = -1e9;
  for (int i = 1; i < 50; i++) {
    if (data[i] > mx) mx = data[i];
    if (data[i] < mn) mn = data[i];
    unsigned u = (unsigned)data[i];
    umax = u > umax ? u : umax;
    sum_clamped += clamp(data[i], -40, 40);
    diffs += absdiff(data[i], data[i - 1]);
    if (data[i] & 4) {
      long t = a;
      a = b;
      b = t + i;
    }
    with_call += data[i] > 0 ? side(data[i]) : data[i];
    double d = data[i] * 0.5;
    if (d > dmax) dmax = d;
  }
  printf("crc %08x\n", crc32_bits(buf, 64));
  printf("max %d min %d umax %u clamped %d diffs %ld\n", mx, mn, umax, sum_clamped, diffs);
  printf("swap %ld %ld call %d calls %d dmax %.1f\n", a, b, with_call, calls, dmax);
  printf("%s %s %d %d %d\n", name_of(mx), name_of(mn), sat8(300), sat8(-300), sat8(-5));
  return 0;
}
