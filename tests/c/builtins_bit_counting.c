/* GNU bit builtins written out as integer code by c2ast
   (stages/c2ast/builtins.cpp): popcount, parity, ffs, clrsb, clz, ctz at
   every width, bswap16/32/64, and clang's rotates (checked against plain C:
   gcc 12 has none) on edge and random values. clz and ctz of 0 are
   undefined and not asked. */
#include <stdio.h>

static unsigned long long state = 0x9e3779b97f4a7c15ull;
static unsigned long long next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static unsigned long long values[64];
static int n_values;

static void fill(void) {
  static const unsigned long long fixed[] = {0, 1, 2, 3, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
                                             0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
                                             0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull,
                                             0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0x0123456789abcdefull};
  for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) values[n_values++] = fixed[i];
  while (n_values < 64) {
    unsigned long long v = next();
    values[n_values++] = v >> (next() % 64);
  }
}

static unsigned long long hash = 1469598103934665603ull;
static void mix(long long v) { hash = (hash ^ (unsigned long long)v) * 1099511628211ull; }

static void counts(void) {
  for (int i = 0; i < n_values; i++) {
    unsigned long long v = values[i];
    unsigned u = (unsigned)v;
    unsigned long ul = (unsigned long)v;
    int s = (int)v;
    long long sll = (long long)v;
    mix(__builtin_popcount(u));
    mix(__builtin_popcountl(ul));
    mix(__builtin_popcountll(v));
    mix(__builtin_parity(u));
    mix(__builtin_parityll(v));
    mix(__builtin_ffs(s));
    mix(__builtin_ffsl((long)v));
    mix(__builtin_ffsll(sll));
    mix(__builtin_clrsb(s));
    mix(__builtin_clrsbl((long)v));
    mix(__builtin_clrsbll(sll));
    if (u) {
      mix(__builtin_clz(u));
      mix(__builtin_ctz(u));
    }
    if (v) {
      mix(__builtin_clzl(ul));
      mix(__builtin_ctzl(ul));
      mix(__builtin_clzll(v));
      mix(__builtin_ctzll(v));
    }
    mix(__builtin_bswap16((unsigned short)v));
    mix(__builtin_bswap32(u));
    mix((long long)__builtin_bswap64(v));
    if (i < 4)
      printf("%#llx: pop %d clz %d ctz %d ffs %d clrsb %d bswap %#llx\n", v, __builtin_popcountll(v),
             v ? __builtin_clzll(v) : -1, v ? __builtin_ctzll(v) : -1, __builtin_ffsll(sll), __builtin_clrsbll(sll),
             (unsigned long long)__builtin_bswap64(v));
  }
  printf("counts %016llx\n", hash);
}

/* clang's rotate builtins (gcc 12 has none): checked against plain C, so
   the output is the same with every compiler. */
#define ROTL(w, x, n) ((unsigned long long)(((x) << ((n) & (w - 1))) | ((x) >> ((w - ((n) & (w - 1))) & (w - 1)))) & (~0ull >> (64 - w)))
#if defined(__has_builtin)
#if __has_builtin(__builtin_rotateleft32)
#define HAVE_ROTATE 1
#endif
#endif
static void rotates(void) {
  int wrong = 0;
  for (int i = 0; i < n_values; i++) {
    unsigned long long v = values[i];
    for (unsigned n = 0; n < 70; n += 3) {
      unsigned long long x8 = (unsigned char)v, x16 = (unsigned short)v, x32 = (unsigned)v;
      unsigned long long want[8] = {ROTL(8, x8, n), ROTL(8, x8, 64 - n), ROTL(16, x16, n), ROTL(16, x16, 64 - n),
                                    ROTL(32, x32, n), ROTL(32, x32, 64 - n), ROTL(64, v, n), ROTL(64, v, 64 - n)};
      for (int k = 0; k < 8; k++) mix((long long)want[k]);
#ifdef HAVE_ROTATE
      unsigned long long got[8] = {__builtin_rotateleft8((unsigned char)v, (unsigned char)n),
                                   __builtin_rotateright8((unsigned char)v, (unsigned char)n),
                                   __builtin_rotateleft16((unsigned short)v, (unsigned short)n),
                                   __builtin_rotateright16((unsigned short)v, (unsigned short)n),
                                   __builtin_rotateleft32((unsigned)v, n),
                                   __builtin_rotateright32((unsigned)v, n),
                                   __builtin_rotateleft64(v, n),
                                   __builtin_rotateright64(v, n)};
      for (int k = 0; k < 8; k++)
        if (got[k] != want[k]) {
          if (wrong++ < 5) printf("rotate %d of %#llx by %u: %#llx, want %#llx\n", k, v, n, got[k], want[k]);
        }
#endif
    }
  }
  printf("rotates %016llx%s\n", hash, wrong ? " WRONG" : "");
}

int main(void) {
  fill();
  counts();
  rotates();
  return 0;
}
