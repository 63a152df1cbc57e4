/* Real threads against pipecc's atomics: 4 threads x 100000 increments of
   shared counters through every kind of atomic (a lost update shows as a
   wrong total), a spin lock built on compare-and-swap guarding a plain
   counter, a seq_cst store/load handshake, and an _Atomic flag released
   by the main thread. Prints only totals, which any correct interleaving
   gives. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define THREADS 4
#define ROUNDS 100000

static long xadd_count;
static _Atomic int c11_count;
static unsigned short narrow_count;
static unsigned long or_bits;
static long long nand_word = -1;
static unsigned sync_nand_word = 0x5a5a5a5a;
static int cas_count;
static int spin;              /* 0 free, 1 held: __sync CAS lock */
static long guarded;          /* a plain counter under the spin lock */
static atomic_flag flag_lock = ATOMIC_FLAG_INIT;
static long flag_guarded;
static _Atomic int go;
static _Atomic long sum_of_ids;

static void *work(void *arg) {
  long id = (long)arg;
  while (!atomic_load(&go)) {
  }
  for (int i = 0; i < ROUNDS; i++) {
    __atomic_fetch_add(&xadd_count, 1, __ATOMIC_RELAXED);
    c11_count++;
    __sync_fetch_and_add(&narrow_count, 1);
    __atomic_or_fetch(&or_bits, 1ul << ((id * 16 + i) % 64), __ATOMIC_SEQ_CST);
    __atomic_fetch_nand(&nand_word, -1, __ATOMIC_SEQ_CST); /* flips every bit */
    if (i & 1) __sync_fetch_and_nand(&sync_nand_word, ~0u); /* gcc >= 4.4: ~(old & v) */
    else __sync_nand_and_fetch(&sync_nand_word, ~0u);
    int seen = __atomic_load_n(&cas_count, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&cas_count, &seen, seen + 1, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    while (__sync_val_compare_and_swap(&spin, 0, 1) != 0) {
    }
    guarded++;
    __sync_lock_release(&spin);
    if (i % 8 == 0) {
      while (atomic_flag_test_and_set(&flag_lock)) {
      }
      flag_guarded += 2;
      atomic_flag_clear(&flag_lock);
    }
  }
  sum_of_ids += id;
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++) pthread_create(&t[i], 0, work, (void *)i);
  atomic_store(&go, 1);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], 0);
  printf("xadd %ld c11 %d narrow %u cas %d\n", xadd_count, c11_count, narrow_count, cas_count);
  printf("or %lx nand %llx %x\n", or_bits, nand_word, sync_nand_word);
  printf("spin %ld flag %ld ids %ld\n", guarded, flag_guarded, (long)sum_of_ids);
  return 0;
}
