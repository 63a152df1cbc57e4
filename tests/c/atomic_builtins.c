/* GNU __atomic_* builtins at every width (1, 2, 4, 8 bytes): fetch_OP and
   OP_fetch (results used and unused), loads and stores with every order,
   the generic forms (through memory, a double too), exchange and
   compare_exchange, with __sync's compare-and-swap beside them. Run
   single-threaded: the values each returns and what it leaves behind. */
#include <stdio.h>

static signed char c8 = -3;
static unsigned short u16 = 65530;
static int i32 = 100;
static unsigned long long u64 = 0xF0F0F0F0F0F0F0F0ull;

static void widths(void) {
  int r1 = __atomic_fetch_add(&c8, 5, __ATOMIC_SEQ_CST);
  int r2 = __atomic_add_fetch(&c8, 125, __ATOMIC_RELAXED); /* wraps */
  printf("c8 %d %d %d\n", r1, r2, c8);
  int r3 = __atomic_fetch_sub(&u16, 10, __ATOMIC_ACQ_REL);
  int r4 = __atomic_sub_fetch(&u16, 65530, __ATOMIC_SEQ_CST);
  printf("u16 %d %d %d\n", r3, r4, u16);
  printf("i32 and %d ", __atomic_fetch_and(&i32, 0x3c, __ATOMIC_SEQ_CST));
  printf("or %d ", __atomic_or_fetch(&i32, 0x101, __ATOMIC_SEQ_CST));
  printf("xor %d ", __atomic_fetch_xor(&i32, 0xff, __ATOMIC_SEQ_CST));
  printf("nand %d ", __atomic_nand_fetch(&i32, 0x0f, __ATOMIC_SEQ_CST));
  printf("now %d\n", i32);
  printf("u64 %llx ", __atomic_fetch_nand(&u64, 0xFF00FF00FF00FF00ull, __ATOMIC_SEQ_CST));
  printf("%llx ", __atomic_xor_fetch(&u64, 1ull << 63, __ATOMIC_SEQ_CST));
  printf("%llx\n", __atomic_and_fetch(&u64, 0x00FFFFFFFFFFFF00ull, __ATOMIC_SEQ_CST));
  /* results unused: lock add/and/or/xor */
  __atomic_fetch_add(&i32, 7, __ATOMIC_SEQ_CST);
  __atomic_fetch_or(&u16, 0x8000, __ATOMIC_SEQ_CST);
  __atomic_and_fetch(&c8, 0x7f, __ATOMIC_SEQ_CST);
  __atomic_fetch_xor(&u64, 0xffff, __ATOMIC_SEQ_CST);
  __atomic_fetch_sub(&i32, 2, __ATOMIC_SEQ_CST);
  printf("unused %d %d %d %llx\n", i32, u16, c8, u64);
}

static void loads_stores(void) {
  long v = 5;
  __atomic_store_n(&v, 42, __ATOMIC_SEQ_CST);
  long a = __atomic_load_n(&v, __ATOMIC_ACQUIRE);
  __atomic_store_n(&v, a + 1, __ATOMIC_RELEASE);
  __atomic_store_n(&v, __atomic_load_n(&v, __ATOMIC_RELAXED) * 2, __ATOMIC_RELAXED);
  long b;
  __atomic_load(&v, &b, __ATOMIC_SEQ_CST);
  long c = 7;
  __atomic_store(&v, &c, __ATOMIC_SEQ_CST);
  long d = 11, e;
  __atomic_exchange(&v, &d, &e, __ATOMIC_SEQ_CST);
  long f = __atomic_exchange_n(&v, 13, __ATOMIC_SEQ_CST);
  printf("ls %ld %ld %ld %ld %ld\n", a, b, e, f, v);
  double dv = 1.5, dr;
  double nd = 2.25;
  __atomic_exchange(&dv, &nd, &dr, __ATOMIC_SEQ_CST);
  printf("double %g %g\n", dr, dv);
}

static void compare_exchange(void) {
  int x = 10, expected = 10;
  int ok = __atomic_compare_exchange_n(&x, &expected, 20, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  printf("cas1 %d %d %d\n", ok, x, expected);
  ok = __atomic_compare_exchange_n(&x, &expected, 30, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  printf("cas2 %d %d %d\n", ok, x, expected);
  short s = 7, se = 7, sd = -1;
  ok = __atomic_compare_exchange(&s, &se, &sd, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
  printf("cas3 %d %d %d\n", ok, s, se);
  printf("sync %d ", __sync_val_compare_and_swap(&x, 20, 21));
  printf("%d ", __sync_val_compare_and_swap(&x, 5, 6));
  printf("%d ", __sync_bool_compare_and_swap(&x, 20, 22));
  ok = __sync_bool_compare_and_swap(&x, 20, 23);
  printf("%d %d\n", ok, x);
}

int main(void) {
  widths();
  loads_stores();
  compare_exchange();
  return 0;
}
