/* Loops scalar evolution must NOT fold: an early exit (break, return), a
   store or a call in the body, a trip count the optimizer cannot know (a
   data-dependent test), an infinite-looking loop left by a return, and a
   loop whose counter wraps before the exit test could end it. Each still
   computes values used after it; they must come out as the loop computes
   them. */
#include <stdio.h>

static int calls;
static int touch(int x) { calls++; return x; }

static int with_break(const int *a, int n, int key) {
  int i;
  for (i = 0; i < n; i++)
    if (a[i] == key) break;
  return i;
}

static int with_return(const int *a, int n) {
  int x = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] < 0) return -x;
    x += 2;
  }
  return x;
}

static int with_store(int *a, int n) {
  int i;
  for (i = 0; i < n; i++) a[i] = i;
  return i;
}

static int with_call(int n) {
  int x = 0;
  for (int i = 0; i < n; i++) x += touch(1);
  return x;
}

static unsigned collatz(unsigned n) {
  unsigned steps = 0;
  while (n != 1) {
    n = (n & 1u) ? 3u * n + 1u : n / 2u;
    steps++;
  }
  return steps;
}

static int forever_until(int n) {
  int x = 0;
  for (;;) {
    x += 3;
    if (x > n) return x;
  }
}

static unsigned wrap_first(unsigned start) {
  unsigned n = 0, i;
  for (i = start; i < 4000000000u && n < 50; i += 1000000000u) n++;
  return n * 7u + i;
}

int main(void) {
  int a[16];
  for (int i = 0; i < 16; i++) a[i] = (i * 7) % 11 - (i == 13 ? 20 : 0);
  unsigned check = 0;
  for (int n = 1; n <= 16; n += 5) {
    int b = with_break(a, n, 6);
    int r = with_return(a, n);
    int s = with_store(a, n / 2);
    int c = with_call(n);
    unsigned z = collatz((unsigned)n * 7u + 1u);
    int f = forever_until(n * 4);
    unsigned w = wrap_first(3500000000u + (unsigned)n);
    printf("n=%d break=%d ret=%d store=%d call=%d collatz=%u forever=%d wrap=%u\n", n, b, r, s, c, z, f, w);
    check = check * 37u + (unsigned)(b + r + s + c + f) + z + w;
  }
  printf("calls %d check %u\n", calls, check);
  return (int)(check % 256u);
}
