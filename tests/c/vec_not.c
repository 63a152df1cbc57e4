/* vec_not.c - loops that look vectorizable but must not be vectorized as
   they stand (sonopt's vectorize pass leaves them scalar), checked for
   their output: a recurrence through memory (a[i+1] from a[i], a loop-
   carried dependence at distance 1), an overlap at a distance below the
   lanes, a stride of 2, float and double sums (reassociating them would
   change their rounding: the values are chosen so that it would), pointer
   parameters that may alias (here they do), a trip count that is not a
   multiple of the lanes, 16-bit elements (narrowing to short wraps, the
   x86-64 ABI choice), a loop that stores its counter.
*/
#include <stdio.h>

#define N 64
static int a[N + 8], b[N];
static short h[N];
static float f[N];
static double d[N];

static void shift_add(int *dst, const int *src, int n) {
  for (int i = 0; i < n; i++) dst[i] = src[i] + 1;
}

int main(void) {
  for (int i = 0; i < N + 8; i++) a[i] = i * 3 - 7;
  for (int i = 0; i < N; i++) {
    b[i] = i ^ 5;
    h[i] = (short)(i * 1000);
    f[i] = (i % 2) ? 1e8f : 1.0f;
    d[i] = (i % 3 == 0) ? 1e17 : (i % 3 == 1 ? 1.0 : -1e17);
  }
  for (int i = 0; i < N; i++) a[i + 1] = a[i] + b[i];  /* distance 1 */
  printf("rec %d %d %d\n", a[1], a[30], a[N]);
  for (int i = 0; i < N; i++) a[i + 3] = a[i] * 2 - b[i]; /* distance 3 < 4 lanes */
  printf("dist3 %d %d\n", a[10], a[N + 2]);
  for (int i = 0; i < N / 2; i++) b[2 * i] = b[2 * i] + 100; /* stride 2 */
  printf("stride %d %d %d\n", b[0], b[1], b[62]);
  float fs = 0.0f;
  for (int i = 0; i < N; i++) fs += f[i];
  double ds = 0.0;
  for (int i = 0; i < N; i++) ds += d[i];
  printf("fsum %.9g dsum %.17g\n", fs, ds);
  shift_add(a + 1, a, N); /* overlapping pointers */
  printf("alias %d %d\n", a[2], a[N]);
  for (int i = 0; i < N - 1; i++) b[i] = b[i] * 3; /* 63 trips */
  printf("odd %d %d\n", b[62], b[63]);
  for (int i = 0; i < N; i++) h[i] = (short)(h[i] + 1234);
  printf("short %d %d\n", h[3], h[N - 1]);
  for (int i = 0; i < N; i++) b[i] = i;
  printf("iota %d %d\n", b[7], b[N - 1]);
  return 0;
}
