/* Feature detection as xxHash, lz4 and other portable code write it: each
   builtin or attribute is used only when __has_builtin or __has_attribute
   says the compiler has it, with a portable fallback otherwise. Whatever
   each compiler answers, what the program prints is the same; an answer of
   yes for a builtin the compiler cannot build stops the build (issue 19:
   clang said yes to __builtin_assume before c2ast had it). */
#include <stdio.h>

#ifndef __has_builtin
#define __has_builtin(x) 0
#endif
#ifndef __has_attribute
#define __has_attribute(x) 0
#endif

#if __has_builtin(__builtin_assume)
#define ASSUME(c) __builtin_assume(c)
#elif __has_builtin(__builtin_unreachable)
#define ASSUME(c) do { if (!(c)) __builtin_unreachable(); } while (0)
#else
#define ASSUME(c) ((void)0)
#endif

#if __has_builtin(__builtin_expect)
#define LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define LIKELY(c) (c)
#endif

#if __has_attribute(noinline)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#if __has_attribute(packed)
#define PACKED __attribute__((packed))
#else
#define PACKED
#endif

/* Builtins portable code asks for that gcc has and we do not (vector and
   x87 helpers): the fallback must be taken by us, and gcc's use of them
   must give the same answer. */
#if __has_builtin(__builtin_ia32_pause)
#define PAUSE() __builtin_ia32_pause()
#else
#define PAUSE() ((void)0)
#endif

static unsigned count_bits(unsigned long long v) {
#if __has_builtin(__builtin_popcountll)
  return (unsigned)__builtin_popcountll(v);
#else
  unsigned n = 0;
  for (; v; v &= v - 1) ++n;
  return n;
#endif
}

static unsigned lowest_bit(unsigned v) {
  ASSUME(v != 0);
#if __has_builtin(__builtin_ctz)
  return (unsigned)__builtin_ctz(v);
#else
  unsigned n = 0;
  while (!(v & 1)) v >>= 1, ++n;
  return n;
#endif
}

static unsigned rotl32(unsigned v, unsigned r) {
#if __has_builtin(__builtin_rotateleft32)
  return __builtin_rotateleft32(v, r);
#else
  return (v << (r & 31)) | (v >> ((32 - r) & 31));
#endif
}

struct PACKED header { char tag; unsigned len; };

NOINLINE static unsigned mix(unsigned h, unsigned v) {
  PAUSE();
  h ^= rotl32(v * 0x9E3779B1u, 13);
  return h * 0x85EBCA77u;
}

int main(void) {
  unsigned h = 0x165667B1u;
  unsigned long long values[] = {0, 1, 0xff, 0x8000000000000001ull, 0x123456789abcdefull};
  for (unsigned i = 0; i < sizeof values / sizeof values[0]; ++i) {
    unsigned bits = count_bits(values[i]);
    h = mix(h, bits);
    if (LIKELY(values[i] != 0)) h = mix(h, lowest_bit((unsigned)(values[i] | (1u << 31))));
    printf("%llx: %u bits, h=%08x\n", values[i], bits, h);
  }
  printf("header is %u bytes\n", (unsigned)sizeof(struct header));
#if __has_builtin(__builtin_popcount) && !__has_builtin(__builtin_no_such_thing) && !__has_attribute(no_such_thing)
  printf("answers as expected\n");
#endif
  return 0;
}
