/* Inline assembly for the machine: cpuid (leaf 0's vendor string and
   highest leaf), rdtsc (two reads, the second not earlier), bswap at 32 and
   64 bits, mfence and the empty "memory" barrier, registers clobbered by
   name (callee-saved rbx r12-r15 and caller-saved ones, with values live
   across), register variables (`register long x asm("r12")`) as operands,
   and xmm operands ("x", "+x") for double arithmetic. The vendor string is
   the machine's, the same for gcc's build and ours. Natively only. */
#include <stdio.h>
#include <string.h>

static void cpuid(unsigned leaf, unsigned *a, unsigned *b, unsigned *c, unsigned *d) {
  __asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static unsigned long long rdtsc(void) {
  unsigned lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}

static unsigned bswap32(unsigned x) {
  __asm__("bswap %0" : "+r"(x));
  return x;
}

static unsigned long bswap64(unsigned long x) {
  __asm__("bswapq %0" : "+r"(x));
  return x;
}

static long callee_saved(long a, long b) {
  long c = a * 3, d = b * 5, e = a ^ b;
  __asm__ volatile("movq $1, %%rbx\n\tmovq $2, %%r12\n\tmovq $3, %%r13\n\tmovq $4, %%r14\n\tmovq $5, %%r15"
                   : : : "rbx", "r12", "r13", "r14", "r15");
  return a + b + c + d + e;
}

static long caller_saved(long a, long b) {
  long c = a - b, d = a * b;
  __asm__ volatile("xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\txorl %%esi, %%esi\n\t"
                   "xorl %%edi, %%edi\n\txorl %%r8d, %%r8d\n\txorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\t"
                   "xorl %%r11d, %%r11d"
                   : : : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc");
  return a + b + c + d;
}

static long register_variables(long x) {
  register long in __asm__("r12") = x;
  register long out __asm__("r13");
  long seen;
  __asm__("leaq 1(%1), %0" : "=r"(out) : "r"(in));
  __asm__("movq %%r12, %0" : "=r"(seen) : "r"(in));
  return out * 100 + seen;
}

static double hypot_sse(double x, double y) {
  double r = x;
  __asm__("mulsd %0, %0\n\tmulsd %1, %1\n\taddsd %1, %0\n\tsqrtsd %0, %0" : "+x"(r), "+x"(y));
  return r;
}

static float add_float(float a, float b) {
  float r;
  __asm__("movss %1, %0\n\taddss %2, %0" : "=&x"(r) : "x"(a), "x"(b));
  return r;
}

static int shared = 0;

static int barriers(void) {
  shared = 1;
  __asm__ volatile("" : : : "memory");
  shared += 2;
  __asm__ volatile("mfence" : : : "memory");
  __asm__ volatile("movl $40, (%0)" : : "r"(&shared) : "memory");
  return shared + 2;
}

int main(void) {
  unsigned a, b, c, d;
  char vendor[13];
  cpuid(0, &a, &b, &c, &d);
  memcpy(vendor, &b, 4);
  memcpy(vendor + 4, &d, 4);
  memcpy(vendor + 8, &c, 4);
  vendor[12] = 0;
  printf("cpuid: '%s' leaves %s\n", vendor, a > 0 ? "yes" : "no");
  unsigned long long t1 = rdtsc(), t2 = rdtsc();
  printf("rdtsc: %s\n", t2 >= t1 ? "monotonic" : "backwards");
  printf("bswap: %08x %016lx\n", bswap32(0x11223344u), bswap64(0x0102030405060708UL));
  printf("clobbers: %ld %ld\n", callee_saved(7, 9), caller_saved(12, 5));
  printf("register variables: %ld\n", register_variables(41));
  printf("sse: %.3f %.2f\n", hypot_sse(3.0, 4.0), (double)add_float(1.25f, 2.5f));
  printf("barriers: %d\n", barriers());
  return 0;
}
