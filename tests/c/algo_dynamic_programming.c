/* Dynamic programming on arrays: 0/1 knapsack, longest common subsequence (with the sequence
   recovered), edit distance, and coin change counts with 64-bit results. */
#include <stdio.h>
#include <string.h>

static int knapsack(const int *w, const int *v, int n, int cap) {
  int best[101] = {0};
  for (int i = 0; i < n; i++)
    for (int c = cap; c >= w[i]; c--)
      if (best[c - w[i]] + v[i] > best[c]) best[c] = best[c - w[i]] + v[i];
  return best[cap];
}

static int lcs(const char *a, const char *b, char *out) {
  static int t[41][41];
  int n = (int)strlen(a), m = (int)strlen(b);
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++)
      t[i][j] = i == 0 || j == 0 ? 0
              : a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1
              : t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1];
  int len = t[n][m], k = len;
  out[k] = 0;
  for (int i = n, j = m; i > 0 && j > 0;) {
    if (a[i - 1] == b[j - 1]) { out[--k] = a[i - 1]; i--; j--; }
    else if (t[i - 1][j] >= t[i][j - 1]) i--;
    else j--;
  }
  return len;
}

static int edit_distance(const char *a, const char *b) {
  int prev[41], cur[41];
  int n = (int)strlen(a), m = (int)strlen(b);
  for (int j = 0; j <= m; j++) prev[j] = j;
  for (int i = 1; i <= n; i++) {
    cur[0] = i;
    for (int j = 1; j <= m; j++) {
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      int del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    memcpy(prev, cur, sizeof cur);
  }
  return prev[m];
}

static unsigned long long coin_ways(int amount) {
  static const int coins[] = {1, 2, 5, 10, 20, 50, 100, 200};
  unsigned long long ways[1001] = {1};
  for (int c = 0; c < 8; c++)
    for (int a = coins[c]; a <= amount; a++) ways[a] += ways[a - coins[c]];
  return ways[amount];
}

int main(void) {
  int w[] = {12, 7, 11, 8, 9, 5, 14, 6};
  int v[] = {24, 13, 23, 15, 16, 9, 30, 11};
  printf("knapsack 26: %d, 50: %d, 100: %d\n", knapsack(w, v, 8, 26), knapsack(w, v, 8, 50),
         knapsack(w, v, 8, 100));
  char out[41];
  const char *pairs[][2] = {{"AGGTAB", "GXTXAYB"}, {"sea of nodes", "sequence of notes"},
                            {"kitten", "sitting"}, {"", "abc"}, {"intention", "execution"}};
  int total = 0;
  for (int i = 0; i < 5; i++) {
    int l = lcs(pairs[i][0], pairs[i][1], out);
    int d = edit_distance(pairs[i][0], pairs[i][1]);
    printf("'%s' '%s': lcs %d '%s' edit %d\n", pairs[i][0], pairs[i][1], l, out, d);
    total += l + d;
  }
  printf("ways(200) = %llu, ways(1000) = %llu\n", coin_ways(200), coin_ways(1000));
  return total;
}
