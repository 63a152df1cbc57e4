/* a.c - the caller side of the interop test (see shapes.h): main calls
   every function of b.c with every shape and prints what comes back; b.c
   calls the functions here back. Built by gcc and by pipecc in every
   combination with b.c, all must print the same. check_callee_saved
   (callee_saved.s) calls a function with known values in rbx, rbp and
   r12 to r15 and fails if any is not restored. */
#include <stdio.h>
#include "shapes.h"

const char a_name[] = "a.c";

long check_callee_saved(long (*f)(int), int arg);

long a_many(long a1, int a2, short a3, signed char a4, long a5, int a6,
            long a7, int a8, short a9, unsigned char a10) {
  return a1 - a2 + a3 - a4 + a5 - a6 + a7 - a8 + a9 - a10 + a10 * a9;
}

long a_structs(struct s5 a, struct s17 b, struct mixed c) {
  unsigned long h = 0;   /* wraps, never overflows */
  for (int i = 0; i < 5; i++) h = h * 3 + a.a[i];
  for (int i = 0; i < 17; i++) h = h * 5 + b.a[i];
  return h + c.c + c.s * 7 + c.i * 11 + c.l;
}

struct s24 a_make_s24(long x) { struct s24 s = {x, x * x, -x}; return s; }
struct s9 a_make_s9(long x) {
  struct s9 s;
  for (int i = 0; i < 9; i++) s.a[i] = (char)(x + i * 29);
  return s;
}
signed char a_ret_i8(int x) { return (signed char)x; }
unsigned short a_ret_u16(int x) { return (unsigned short)x; }
long a_add(long x, long y) { return x + y; }

static long sum_bytes(const char *p, int n) {
  unsigned long h = 0;
  for (int i = 0; i < n; i++) h = h * 131 + p[i];
  return h;
}

static void small_results(void) {
  for (int x = -3; x < 300; x += 101) {
    /* The results are used at widths wider than their types: the callee's
       extension (or our masking) decides what shows. */
    long r = (long)b_ret_i8(x) * 1000000 + (long)b_ret_u8(x) * 1000 + b_ret_i16(x);
    printf("small results %d: %ld %u\n", x, r, (unsigned)b_ret_u16(x));
  }
  printf("small args: %ld %ld\n", b_small_args(-5, 250, -30000, 65000, -7, 4000000000u),
         b_small_args(127, 0, 32767, 0, 2147483647, 0));
}

static void struct_args(void) {
  struct s1 s1 = {{9}};
  struct s2 s2 = {{1, 2}};
  struct s3 s3 = {{3, 4, 5}};
  struct s4 s4 = {{6, 7, 8, 9}};
  struct s5 s5 = {{10, 11, 12, 13, 14}};
  struct s7 s7 = {{15, 16, 17, 18, 19, 20, 21}};
  struct s8 s8 = {{22, 23, 24, 25, 26, 27, 28, 29}};
  struct s9 s9 = {{30, 31, 32, 33, 34, 35, 36, 37, 38}};
  printf("structs: %ld\n", b_structs(s1, s2, s3, s4, s5, s7, s8, s9));
  struct s12 s12 = {100, -200, 300};
  struct s15 s15;
  struct s17 s17;
  for (int i = 0; i < 15; i++) s15.a[i] = (char)(i * 17);
  for (int i = 0; i < 17; i++) s17.a[i] = (char)(i * 19 - 40);
  struct s16 s16 = {1L << 35, -3};
  struct s24 s24 = {4, 5, 6};
  struct s32 s32 = {7, 8, 9, -10};
  struct mixed m = {-1, -2, -3, -4};
  printf("big structs: %ld\n", b_big_structs(s12, s15, s16, s17, s24, s32, m));
  struct s16 t16 = {11, 12};
  printf("regs then stack: %ld\n", b_regs_then_stack(1, 2, 3, 4, 5, s16, t16));
}

static void struct_results(void) {
  for (int seed = 1; seed < 4; seed++) {
    struct s1 r1 = b_make_s1(seed);
    struct s3 r3 = b_make_s3(seed);
    struct s8 r8 = b_make_s8(seed);
    struct s12 r12 = b_make_s12(seed);
    struct s16 r16 = b_make_s16(seed);
    struct s17 r17 = b_make_s17(seed);
    struct s24 r24 = b_make_s24(seed);
    struct s32 r32 = b_make_s32(seed);
    struct mixed rm = b_make_mixed(seed);
    printf("results %d: %ld %ld %ld %d %d %d %ld %ld %ld %ld %ld %ld %ld %ld %d %d %d %ld\n", seed,
           sum_bytes(r1.a, 1), sum_bytes(r3.a, 3), sum_bytes(r8.a, 8), r12.a, r12.b, r12.c, r16.a, r16.b,
           sum_bytes(r17.a, 17), r24.a + r24.b * 10 + r24.c * 100, r32.a, r32.b, r32.c, r32.d, rm.c, rm.s,
           rm.i, rm.l);
  }
  long slot = 10;
  struct ptrs p = b_make_ptrs(&slot);
  printf("ptrs: %s %ld %d\n", p.name, slot, p.slot == &slot);
}

static void pointers_and_data(void) {
  printf("apply: %ld %ld\n", b_apply(a_add, 5, 7), b_apply(b_pick(0), 5, 7));
  for (int i = 0; i < 3; i++) printf("pick %d: %ld\n", i, b_pick(i)(100, 3));
  long xs[9] = {1, -2, 3, -4, 5, -6, 7, -8, 1L << 50};
  printf("list: %ld\n", b_sum_list(xs, 9));
  printf("many: %ld\n", b_many(1, -2, 3, -4, 5, -6, 7, -8, 9, 250));
  printf("counter: %ld\n", b_counter);
  b_counter += 100;
  printf("counter: %ld\n", b_counter);
}

long a_bits(struct bits p) { return p.a * 1000000L + p.b * 1000L + (long)p.c + p.d; }
struct bits a_make_bits(int seed) {
  struct bits p = {(unsigned)seed, -seed * 300, 0x8000000000ULL - (unsigned long long)seed, (signed char)-seed};
  return p;
}

static void bit_fields(void) {
  for (int seed = 1; seed < 4; seed++) {
    struct bits p = a_make_bits(seed);
    struct bits12 q = {0x7fffffffu - (unsigned)seed, -seed * 1000003, (unsigned)seed << 28};
    struct bits12 r = b_make_bits12(seed);
    printf("bits %d: %ld %u %d %u\n", seed, b_bits(p, q), r.x, r.y, r.z);
  }
}

static long call_back(int n) { return b_call_back_into_a(n); }

int main(void) {
  small_results();
  struct_args();
  struct_results();
  pointers_and_data();
  bit_fields();
  for (int n = 0; n < 3; n++) printf("back into a %d: %ld\n", n, b_call_back_into_a(n));
  printf("callee-saved: %ld %ld\n", check_callee_saved(b_call_back_into_a, 5),
         check_callee_saved(call_back, 6));
  return 0;
}
