/* GNU overflow builtins written out by c2ast (stages/c2ast/builtins.cpp):
   add, sub and mul_overflow, generic and typed, on edge values for mixes
   of operand and result types of every width and signedness, and the query builtins that
   answer "unknown" (constant_p, object_size, assume_aligned, prefetch). */
#include <limits.h>
#include <stdio.h>

static unsigned long long hash = 1469598103934665603ull;
static void mix(long long v) { hash = (hash ^ (unsigned long long)v) * 1099511628211ull; }

#define CHECK(op, A, B, T)                  \
  do {                                      \
    T r;                                    \
    int o = __builtin_##op##_overflow(A, B, &r); \
    mix(o);                                 \
    mix((long long)r);                      \
  } while (0)

static void overflows(void) {
  static const long long edge[] = {0, 1, -1, 2, -2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, INT_MAX, INT_MIN, UINT_MAX,
                                   0x100000000ll, 0x7fffffffll * 3, LLONG_MAX, LLONG_MIN, LLONG_MAX / 2, 3037000499ll,
                                   3037000500ll, -3037000500ll};
  int n = sizeof edge / sizeof edge[0];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      long long a = edge[i], b = edge[j];
      int ia = (int)a, ib = (int)b;
      unsigned ua = (unsigned)a, ub = (unsigned)b;
      unsigned long long ula = (unsigned long long)a, ulb = (unsigned long long)b;
      CHECK(add, ia, ib, int);
      CHECK(sub, ia, ib, int);
      CHECK(mul, ia, ib, int);
      CHECK(add, ua, ub, unsigned);
      CHECK(sub, ua, ub, unsigned);
      CHECK(mul, ua, ub, unsigned);
      CHECK(add, ia, ub, int);
      CHECK(mul, ua, ib, unsigned);
      CHECK(add, ia, ib, short);
      CHECK(mul, ia, ib, unsigned char);
      CHECK(sub, ua, ub, signed char);
      CHECK(mul, ia, ib, long long);
      CHECK(mul, ua, ub, long long);
      CHECK(sub, ua, ub, unsigned long long);
      CHECK(add, ia, ub, unsigned long);
      CHECK(mul, ia, ib, unsigned long long);
      CHECK(add, a, b, long long);
      CHECK(sub, a, b, long long);
      CHECK(mul, a, b, long long);
      CHECK(add, ula, ulb, unsigned long long);
      CHECK(sub, ula, ulb, unsigned long long);
      CHECK(mul, ula, ulb, unsigned long long);
      CHECK(mul, a, ulb, long long); /* 64-bit operands of different types */
      CHECK(mul, ula, b, unsigned long long);
      CHECK(add, ula, b, int);
      CHECK(sub, a, ulb, unsigned char);
      CHECK(mul, a, b, unsigned);
      CHECK(add, ula, ulb, short);
      CHECK(sub, ia, ulb, long long);
      int r;
      long lr;
      unsigned long long ur;
      mix(__builtin_sadd_overflow(ia, ib, &r));
      mix(r);
      mix(__builtin_smull_overflow((long)a, (long)b, &lr));
      mix(lr);
      mix(__builtin_umulll_overflow(ula, ulb, &ur));
      mix((long long)ur);
    }
  }
  int r;
  printf("INT_MAX + 1: %d", __builtin_add_overflow(INT_MAX, 1, &r));
  printf(" -> %d\n", r);
  printf("overflows %016llx\n", hash);
}

static int side_effects;
static int touch(void) { return ++side_effects; }

static void queries(char *p) {
  printf("constant_p %d %d\n", __builtin_constant_p(42), __builtin_constant_p(side_effects + touch()));
  printf("object_size %ld %ld %ld %ld\n", (long)__builtin_object_size(p, 0), (long)__builtin_object_size(p, 1),
         (long)__builtin_object_size(p, 2), (long)__builtin_object_size(p, 3));
  __builtin_prefetch(p + touch());
  __builtin_prefetch(p, 0, 3);
  char *q = __builtin_assume_aligned(p, 1);
  printf("assume_aligned %d, side effects %d\n", q == p, side_effects);
}

int main(int argc, char **argv) {
  (void)argv;
  overflows();
  static char buf[16];
  static char *volatile hidden; /* no compiler may see which object p points to */
  hidden = buf;
  queries(argc > 5 ? 0 : hidden);
  return 0;
}
