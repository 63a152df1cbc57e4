/* Inline assembly against the optimizer: a volatile asm in a loop runs on
   every trip (a counter it increments through "+m"); an asm without
   outputs is never deleted; a "memory" clobber orders the asm against the
   loads and stores around it (a value stored before is in memory, a value
   the asm stored is read after, also through a local whose address only
   the asm sees); asm in a function that is inlined and in a loop that is
   unrolled (each copy with its own %= label); outputs into globals, array
   elements and narrow variables; an asm whose output is unused. */
#include <stdio.h>

static int g = 0;
static long total = 0;

static int bump_each_trip(int n) {
  int counter = 0;
  for (int i = 0; i < n; ++i) __asm__ volatile("incl %0" : "+m"(counter));
  return counter;
}

static void add_to_total(long v) { __asm__ volatile("addq %1, (%0)" : : "r"(&total), "r"(v) : "memory"); }

static int memory_order(void) {
  g = 1;
  __asm__ volatile("addl $10, (%0)" : : "r"(&g) : "memory");
  int seen = g;
  g = seen + 100;
  __asm__ volatile("shll $1, (%0)" : : "r"(&g) : "memory");
  return g;
}

static int through_local(void) {
  int local[4] = {1, 2, 3, 4};
  int *p = local;
  __asm__ volatile("movl $50, 8(%0)" : : "r"(p) : "memory");
  return local[0] + local[2];
}

static inline int clamp_nonneg(int x) {
  __asm__("testl %0, %0\n\tjns .Lpos%=\n\txorl %0, %0\n.Lpos%=:" : "+r"(x) : : "cc");
  return x;
}

static int sum_clamped(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += clamp_nonneg(v[i]);
  return s + clamp_nonneg(-5) + clamp_nonneg(5);
}

static int unrolled(void) {
  int acc = 0;
  for (int i = 0; i < 4; ++i) __asm__("leal 1(%1,%2), %0" : "=r"(acc) : "r"(acc), "r"(i));
  return acc;
}

static unsigned char narrow(unsigned char c, short s, short *out) {
  __asm__("addb $1, %0" : "+q"(c));
  __asm__("negw %0" : "+r"(s));
  *out = s;
  return c;
}

int results[3];

static void fill(void) {
  for (int i = 0; i < 3; ++i) __asm__("movl %1, %0\n\timull %1, %0" : "=&r"(results[i]) : "r"(i + 2));
}

static int unused_output(int x) {
  int dead;
  __asm__("movl %1, %0" : "=r"(dead) : "r"(x));
  return x + 1;
}

int main(void) {
  int v[6] = {3, -4, 5, -6, 7, 0};
  short s = 0;
  printf("trips %d %d\n", bump_each_trip(0), bump_each_trip(17));
  for (long i = 1; i <= 10; ++i) add_to_total(i);
  printf("total %ld\n", total);
  printf("memory %d local %d\n", memory_order(), through_local());
  printf("clamped %d unrolled %d\n", sum_clamped(v, 6), unrolled());
  unsigned char c = narrow(254, 300, &s);
  printf("narrow %u %d\n", c, s);
  fill();
  printf("fill %d %d %d unused %d\n", results[0], results[1], results[2], unused_output(8));
  return 0;
}
