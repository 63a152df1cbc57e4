/* The __sync_* builtins (fetch_and_OP, OP_and_fetch, compare-and-swap,
   lock_test_and_set, lock_release, synchronize), __atomic_test_and_set and
   __atomic_clear, atomics on pointers (by bytes, as gcc documents), fences,
   the lock-free queries, and atomics in loops that the optimizer must keep.
   Single-threaded: the values each returns and leaves. (__sync nand, whose
   meaning changed in gcc 4.4, is in tests/threads/atomic_threads.c.) */
#include <stdio.h>

static unsigned long long u64 = 0xF0F0F0F0F0F0F0F0ull;
static int arr[4] = {1, 2, 3, 4};
static int *ptr = arr;

static void sync_ops(void) {
  unsigned v = 0x1234;
  printf("s1 %x ", __sync_fetch_and_add(&v, 0x10));
  printf("%x ", __sync_fetch_and_sub(&v, 0x4));
  printf("%x ", __sync_fetch_and_or(&v, 0xf0000));
  printf("%x ", __sync_fetch_and_and(&v, 0xff0ff));
  printf("%x ", __sync_fetch_and_xor(&v, 0x3));
  printf("%x\n", v);
  printf("s2 %x ", __sync_add_and_fetch(&v, 1));
  printf("%x ", __sync_sub_and_fetch(&v, 2));
  printf("%x ", __sync_or_and_fetch(&v, 0x100));
  printf("%x ", __sync_and_and_fetch(&v, 0xfff));
  printf("%x\n", __sync_xor_and_fetch(&v, 0x55));
  long lock = 0;
  printf("lock %ld ", __sync_lock_test_and_set(&lock, 1));
  printf("%ld ", __sync_lock_test_and_set(&lock, 1));
  __sync_lock_release(&lock);
  __sync_synchronize();
  printf("%ld\n", lock);
  unsigned char flag = 0;
  printf("tas %d ", __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
  printf("%d ", __atomic_test_and_set(&flag, __ATOMIC_ACQUIRE));
  __atomic_clear(&flag, __ATOMIC_RELEASE);
  printf("%d\n", flag);
}

static void pointers_and_fences(void) {
  int *old = __atomic_fetch_add(&ptr, sizeof(int), __ATOMIC_SEQ_CST);
  int *now = __atomic_add_fetch(&ptr, 2 * sizeof(int), __ATOMIC_SEQ_CST);
  printf("ptr %d %d %d\n", *old, *now, (int)(ptr - arr));
  int *swapped = __sync_val_compare_and_swap(&ptr, arr + 3, arr + 1);
  printf("ptr cas %d %d\n", *swapped, *ptr);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_RELAXED);
  printf("lock-free %d %d %d %d\n", __atomic_always_lock_free(4, 0), __atomic_always_lock_free(8, 0),
         __atomic_is_lock_free(sizeof(long), &u64), (int)__atomic_always_lock_free(1, 0));
}

/* An atomic in a loop: the optimizer must keep every increment. */
static int counter;
static int count_to(int n) {
  for (int i = 0; i < n; i++) __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
  int seen = 0;
  for (int i = 0; i < n; i++) seen += __atomic_load_n(&counter, __ATOMIC_ACQUIRE) > i;
  return seen;
}

int main(void) {
  sync_ops();
  pointers_and_fences();
  int seen = count_to(1000);
  printf("count %d %d\n", seen, counter);
  return 0;
}
