/* GNU extended inline assembly, the operands (x86-64, AT&T syntax as gcc):
   register outputs and inputs, in-out ("+"), early clobber ("=&"), matching
   inputs ("0"), memory operands ("m", "+m", "=m"), immediates ("i", "n"),
   the fixed registers a b c d S D, Q, named operands, the modifiers b w k q
   h c n, %= and %%. Every asm has a result printed, so gcc's build and
   ours must agree. Runs natively only (pipe-run refuses inline assembly). */
#include <stdio.h>

static int add3(int a, int b, int c) {
  int r;
  __asm__("movl %1, %0\n\taddl %2, %0\n\taddl %3, %0" : "=&r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

static long twice(long x) {
  __asm__("addq %0, %0" : "+r"(x));
  return x;
}

static unsigned sub_matching(unsigned a, unsigned b) {
  unsigned r;
  __asm__("subl %2, %0" : "=r"(r) : "0"(a), "r"(b));
  return r;
}

static int fetch_add(int *p, int v) {
  int old;
  __asm__("movl %1, %0\n\taddl %2, %1" : "=&r"(old), "+m"(*p) : "r"(v));
  return old;
}

static void store_to(long *dst, long v) { __asm__("movq %1, %0" : "=m"(*dst) : "r"(v)); }

static long load_from(const long *src) {
  long v;
  __asm__("movq %1, %0" : "=r"(v) : "m"(*src));
  return v;
}

static long immediates(long x) {
  __asm__("addq %[k], %[x]\n\tshlq %[s], %[x]" : [x] "+r"(x) : [k] "i"(1000), [s] "n"(3));
  return x;
}

static unsigned widening_mul(unsigned a, unsigned b, unsigned *hi) {
  unsigned lo;
  __asm__("mull %3" : "=a"(lo), "=d"(*hi) : "a"(a), "r"(b) : "cc");
  return lo;
}

static void copy_bytes(char *dst, const char *src, unsigned long n) {
  __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static unsigned second_byte(unsigned x) {
  unsigned r;
  __asm__("movzbl %h1, %k0" : "=Q"(r) : "Q"(x));
  return r;
}

static long modifiers(long x, int y) {
  short w;
  long q;
  unsigned char b;
  __asm__("movw %w1, %0" : "=r"(w) : "r"(x));
  __asm__("movslq %k1, %q0" : "=r"(q) : "r"(y));
  __asm__("movb %b1, %0" : "=r"(b) : "r"(x));
  return w + q + b;
}

static long constants(const long *table, long x) {
  long r;
  __asm__("movq %c2(%1), %0\n\taddq $%n3, %0" : "=r"(r) : "r"(table), "i"(2 * sizeof(long)), "i"(5));
  return r + x;
}

static int skip_unique(int flag) {
  int r = 0;
  __asm__("testl %1, %1\n\tjz .Lskip%=\n\tmovl $42, %0\n.Lskip%=:" : "+r"(r) : "r"(flag) : "cc");
  return r;
}

static int percent(void) {
  int r;
  __asm__("movl $7, %%ecx\n\tleal 1(%%rcx), %0" : "=r"(r) : : "rcx");
  return r;
}

struct pair { int a, b; };

int main(void) {
  int counter = 10, cells[3] = {1, 2, 3};
  long slot = 0, table[4] = {11, 22, 33, 44};
  unsigned hi = 0, lo = widening_mul(0x89abcdefu, 0x12345u, &hi);
  char text[16] = "assembler";
  char copy[16] = {0};
  struct pair p = {3, 4};
  printf("add3 %d twice %ld sub %u\n", add3(1, 20, 300), twice(-21), sub_matching(50u, 8u));
  int old = fetch_add(&counter, 5);
  printf("fetch_add %d then %d\n", old, counter);
  store_to(&slot, -77);
  printf("store %ld load %ld\n", slot, load_from(&table[2]));
  printf("immediates %ld mul %u %u\n", immediates(3), lo, hi);
  copy_bytes(copy, text, 10);
  printf("copy '%s' byte %u\n", copy, second_byte(0x12345678u));
  printf("modifiers %ld constants %ld\n", modifiers(0x1234567887654321L, -9), constants(table, 1));
  printf("unique %d %d percent %d\n", skip_unique(0), skip_unique(1), percent());
  __asm__("addl %1, %0" : "+r"(cells[1]) : "r"(cells[2]));
  __asm__("imull %1, %0" : "+r"(p.b) : "rm"(p.a));
  printf("cells %d %d %d pair %d %d\n", cells[0], cells[1], cells[2], p.a, p.b);
  return 0;
}
