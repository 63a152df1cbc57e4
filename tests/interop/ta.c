/* Thread-local interoperation (issue 19), with tb.c: each side defines
   thread-local variables (initialized, zero, arrays, structs, a hidden and
   a static one reached through a function) and uses the other side's
   through extern __thread declarations: initial-exec in an executable,
   general-dynamic under -fPIC (tests/test_tls.py builds it both ways).
   Run on the main thread and on two more threads, each of which must see
   its own copies, starting from the initial image. */
#include <pthread.h>
#include <stdio.h>

struct tpair { int a; long b; };

__thread int ta_counter = 11;
__thread long ta_zero;
__thread struct tpair ta_pair = {3, 4};
__thread char ta_text[16] = "alpha";
__attribute__((visibility("hidden"))) __thread int ta_hidden = 9;

extern __thread int tb_counter;
extern __thread long tb_array[5];
extern __thread struct tpair tb_pair;
int *tb_static_address(void);
long tb_touch(int by);

static long ta_round(int by) {
  ta_counter += by;
  ta_zero += ta_counter;
  ta_pair.b *= 2;
  ta_text[0] = (char)('a' + by);
  ta_hidden += by;
  tb_counter += by * 3;
  for (int i = 0; i < 5; i++) tb_array[i] += i * by;
  tb_pair.a -= by;
  *tb_static_address() += 1;
  long s = tb_touch(by);
  return s + ta_counter + ta_zero + ta_pair.b + ta_text[0] + ta_hidden + tb_counter + tb_array[4] + tb_pair.a +
         *tb_static_address();
}

static void *thread_main(void *arg) {
  int by = (int)(long)arg;
  long s = 0;
  for (int i = 0; i < 3; i++) s += ta_round(by);
  printf("thread %d: %ld %d %ld %s\n", by, s, ta_counter, tb_array[3], ta_text);
  return 0;
}

int main(void) {
  pthread_t t[2];
  printf("main first: %d %ld %d %ld %s %d\n", ta_counter, ta_zero, ta_pair.a, ta_pair.b, ta_text, tb_counter);
  for (long i = 0; i < 2; i++) {
    pthread_create(&t[i], 0, thread_main, (void *)(i + 2));
    pthread_join(t[i], 0);  /* one at a time: the output's order is fixed */
  }
  thread_main((void *)1);
  return 0;
}
