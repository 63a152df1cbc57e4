/* C11 _Atomic objects and <stdatomic.h>: loads, stores, compound
   assignment and ++/-- on _Atomic integers, pointers and _Bool are
   sequentially consistent atomic operations; atomic_* functions with
   explicit orders; atomic_flag; _Atomic members of structs and globals
   with initializers. Single-threaded: the values are checked. */
#include <stdatomic.h>
#include <stdio.h>

static _Atomic int g = 40;
static atomic_long counts[3] = {1, 2, 3};
static _Atomic(char *) cursor;
static char text[] = "abcdefgh";

struct stats {
  int id;
  _Atomic unsigned hits;
  atomic_short small;
};

static void objects(void) {
  g += 2;
  g -= 1;
  g |= 0x100;
  g &= 0x1ff;
  g ^= 0x3;
  printf("g %d ", g);
  int a = g++;
  int b = ++g;
  int c = g--;
  int d = --g;
  printf("%d %d %d %d %d\n", a, b, c, d, g);
  g *= 3;
  g /= 2;
  g %= 100;
  g <<= 2;
  g >>= 1;
  printf("mul %d\n", g);
  _Atomic unsigned char uc = 250;
  uc += 10; /* wraps in the object's type */
  int wrapped = uc;
  uc++;
  printf("uc %d %d\n", wrapped, uc);
  _Atomic _Bool flag = 0;
  flag = 5;
  int f1 = flag;
  flag += 2;
  int f2 = flag;
  printf("bool %d %d\n", f1, f2);
  _Atomic long long big = 1;
  big <<= 40;
  big += 0x123;
  big *= -1;
  printf("big %lld\n", big);
}

static void pointers(void) {
  cursor = text;
  char first = *cursor++;
  atomic_fetch_add(&cursor, 3); /* clang 14 rejects += on an _Atomic pointer */
  char fifth = *cursor;
  atomic_fetch_sub(&cursor, 2);
  printf("ptr %c %c %c %d\n", first, fifth, *cursor, (int)(cursor - text));
  char *was = atomic_fetch_add(&cursor, 2);
  printf("fetch_add %c %c\n", *was, *atomic_load(&cursor));
}

static void functions(void) {
  atomic_int x;
  atomic_init(&x, 5);
  atomic_store_explicit(&x, 6, memory_order_release);
  int v = atomic_load_explicit(&x, memory_order_acquire);
  int old = atomic_exchange(&x, 9);
  int f = atomic_fetch_sub_explicit(&x, 4, memory_order_relaxed);
  int o = atomic_fetch_or(&x, 0x30);
  int an = atomic_fetch_and(&x, 0x1f);
  int xo = atomic_fetch_xor_explicit(&x, 0xff, memory_order_acq_rel);
  printf("fn %d %d %d %d %d %d %d\n", v, old, f, o, an, xo, atomic_load(&x));
  int expected = 0;
  _Bool ok = atomic_compare_exchange_strong(&x, &expected, 1);
  printf("cas %d %d ", ok, expected);
  ok = atomic_compare_exchange_weak_explicit(&x, &expected, 77, memory_order_seq_cst, memory_order_relaxed);
  printf("%d %d %d\n", ok, expected, atomic_load(&x));
  atomic_flag fl = ATOMIC_FLAG_INIT;
  int t1 = atomic_flag_test_and_set(&fl);
  int t2 = atomic_flag_test_and_set_explicit(&fl, memory_order_acquire);
  atomic_flag_clear(&fl);
  int t3 = atomic_flag_test_and_set(&fl);
  printf("flag %d %d %d\n", t1, t2, t3);
  atomic_thread_fence(memory_order_seq_cst);
  atomic_signal_fence(memory_order_acquire);
  printf("lock-free %d %d\n", atomic_is_lock_free(&x), (int)ATOMIC_INT_LOCK_FREE);
}

static void members(void) {
  struct stats s = {7, 0, 0};
  struct stats *p = &s;
  for (int i = 0; i < 10; i++) {
    p->hits++;
    p->small -= 3;
  }
  atomic_fetch_add(&p->hits, 100);
  counts[1] += 40;
  counts[2]++;
  long total = 0;
  for (int i = 0; i < 3; i++) total += counts[i];
  printf("members %d %u %d %ld\n", s.id, s.hits, s.small, total);
}

int main(void) {
  objects();
  pointers();
  functions();
  members();
  return 0;
}
