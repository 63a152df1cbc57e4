/* Thread-local storage under real threads (issue 19): 4 threads each
   update their own __thread counter, array and struct many times, publish
   the addresses of their copies (valid in every thread while it lives),
   and the main thread reads every copy through them while the threads wait
   at a barrier. A shared copy (TLS
   compiled as an ordinary global) shows as wrong totals and equal
   addresses; a wrong initial image as wrong first values. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ROUNDS 200000

__thread long counter = 1000;
static __thread int hist[8] = {1, 1, 1, 1, 1, 1, 1, 1};
static _Thread_local struct { int id; long sum; } me;
extern __thread int late;

struct result {
  long *counter;
  int *hist;
  long sum;
  int first_counter, first_hist, late_seen;
};
static struct result results[THREADS];
static pthread_barrier_t published, read_done;

static long work(int id) {
  static _Thread_local long calls;
  calls++;
  me.id = id;
  for (long i = 0; i < ROUNDS; i++) {
    counter += id + 1;
    hist[(i + id) & 7] += 1;
    me.sum += i & 15;
  }
  return calls;
}

static void *thread_main(void *arg) {
  int id = (int)(long)arg;
  struct result *r = &results[id];
  r->first_counter = (int)counter;
  r->first_hist = hist[3];
  late += id;
  r->late_seen = late;
  long calls = work(id) + work(id);
  r->counter = &counter;
  r->hist = hist;
  r->sum = me.sum * 10 + calls + me.id;
  pthread_barrier_wait(&published);
  pthread_barrier_wait(&read_done);  /* the copies live until the thread ends */
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  pthread_barrier_init(&published, 0, THREADS + 1);
  pthread_barrier_init(&read_done, 0, THREADS + 1);
  for (long i = 0; i < THREADS; i++)
    if (pthread_create(&t[i], 0, thread_main, (void *)i) != 0) return 2;
  pthread_barrier_wait(&published);
  int distinct = 1;
  for (int i = 0; i < THREADS; i++) {
    struct result *r = &results[i];
    long h = 0;
    for (int k = 0; k < 8; k++) h += r->hist[k];
    printf("thread %d: first %d %d late %d counter %ld hist %ld sum %ld\n", i, r->first_counter, r->first_hist,
           r->late_seen, *r->counter, h, r->sum);
    for (int j = 0; j < i; j++)
      if (results[j].counter == r->counter || results[j].hist == r->hist) distinct = 0;
    if (r->counter == &counter) distinct = 0;
  }
  pthread_barrier_wait(&read_done);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], 0);
  printf("main: counter %ld late %d distinct %d\n", counter, late, distinct);
  return 0;
}

__thread int late = 5;
