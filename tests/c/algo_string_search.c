/* String search: naive, Knuth-Morris-Pratt with a failure table, and Rabin-Karp with a rolling
   hash in unsigned arithmetic; all three must agree on every match position. */
#include <stdio.h>
#include <string.h>

static int naive(const char *t, const char *p, int *pos) {
  int n = (int)strlen(t), m = (int)strlen(p), k = 0;
  for (int i = 0; i + m <= n; i++)
    if (memcmp(t + i, p, (size_t)m) == 0) pos[k++] = i;
  return k;
}

static int kmp(const char *t, const char *p, int *pos) {
  int n = (int)strlen(t), m = (int)strlen(p), k = 0;
  int fail[64];
  fail[0] = 0;
  for (int i = 1, j = 0; i < m; i++) {
    while (j > 0 && p[i] != p[j]) j = fail[j - 1];
    if (p[i] == p[j]) j++;
    fail[i] = j;
  }
  for (int i = 0, j = 0; i < n; i++) {
    while (j > 0 && t[i] != p[j]) j = fail[j - 1];
    if (t[i] == p[j]) j++;
    if (j == m) { pos[k++] = i - m + 1; j = fail[j - 1]; }
  }
  return k;
}

static int rabin_karp(const char *t, const char *p, int *pos) {
  int n = (int)strlen(t), m = (int)strlen(p), k = 0;
  if (m > n) return 0;
  const unsigned B = 257;
  unsigned hp = 0, ht = 0, pow = 1;
  for (int i = 0; i < m; i++) {
    hp = hp * B + (unsigned char)p[i];
    ht = ht * B + (unsigned char)t[i];
    if (i) pow *= B;
  }
  for (int i = 0;; i++) {
    if (hp == ht && memcmp(t + i, p, (size_t)m) == 0) pos[k++] = i;
    if (i + m >= n) break;
    ht = (ht - (unsigned char)t[i] * pow) * B + (unsigned char)t[i + m];
  }
  return k;
}

int main(void) {
  const char *text = "abracadabra abracadabra! aaaaab abababab cadabra";
  const char *pats[] = {"abra", "a", "aab", "abab", "cadabra", "zzz", "abracadabra!"};
  int p1[64], p2[64], p3[64];
  int agree = 0, total = 0;
  for (int i = 0; i < 7; i++) {
    int a = naive(text, pats[i], p1), b = kmp(text, pats[i], p2), c = rabin_karp(text, pats[i], p3);
    int same = a == b && b == c && memcmp(p1, p2, sizeof(int) * (size_t)a) == 0 &&
               memcmp(p2, p3, sizeof(int) * (size_t)a) == 0;
    agree += same;
    total += a;
    printf("%-13s %2d matches:", pats[i], a);
    for (int k = 0; k < a && k < 8; k++) printf(" %d", p1[k]);
    printf("%s\n", same ? "" : "  DISAGREE");
  }
  printf("agree %d total %d\n", agree, total);
  return total;
}
