/* Classic recursive functions: Ackermann (small arguments), towers of Hanoi, binomial
   coefficients by Pascal's rule with memoization, and McCarthy's 91 function. */
#include <stdio.h>

static unsigned long calls;

static unsigned long ackermann(unsigned long m, unsigned long n) {
  calls++;
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

static int moves;
static int pegs[3];

static void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  pegs[from]--;
  pegs[to]++;
  moves++;
  if (n == 6) printf("move disk 6 from %d to %d\n", from, to);
  hanoi(n - 1, via, to, from);
}

static long long memo[40][40];
static long long binom(int n, int k) {
  if (k == 0 || k == n) return 1;
  if (memo[n][k]) return memo[n][k];
  return memo[n][k] = binom(n - 1, k - 1) + binom(n - 1, k);
}

static int mc91(int n) { return n > 100 ? n - 10 : mc91(mc91(n + 11)); }

int main(void) {
  for (unsigned long m = 0; m <= 3; m++) {
    for (unsigned long n = 0; n <= 4; n++) {
      calls = 0;
      printf("A(%lu,%lu)=%lu ", m, n, ackermann(m, n));
    }
    printf("\n");
  }
  calls = 0;
  unsigned long a23 = ackermann(2, 3);
  printf("A(2,3)=%lu in %lu calls\n", a23, calls);
  pegs[0] = 12;
  hanoi(12, 0, 2, 1);
  printf("hanoi: %d moves, pegs %d %d %d\n", moves, pegs[0], pegs[1], pegs[2]);
  printf("C(10,3)=%lld C(30,15)=%lld C(39,19)=%lld\n", binom(10, 3), binom(30, 15), binom(39, 19));
  int ok = 1;
  for (int n = -50; n <= 101; n++) ok &= mc91(n) == 91;
  printf("mc91 always 91 up to 101: %d, mc91(150)=%d\n", ok, mc91(150));
  return moves % 256;
}
