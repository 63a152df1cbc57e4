/* volatile objects: every read and write happens, in order, the number of times the program
   says; volatile globals, locals, arrays, struct members and pointers to volatile. */
#include <stdio.h>

static volatile int status_reg;
static volatile unsigned char ring[8];
static volatile long counter;

struct device { volatile unsigned int ctrl; volatile unsigned int data; unsigned int shadow; };

static void write_twice(volatile int *p, int v) {
  *p = v;
  *p = v + 1; /* both stores happen; the last one wins */
}

static int poll(volatile int *p, int limit) {
  int reads = 0;
  while (*p < limit) {
    reads++;
    *p += 3;
  }
  return reads;
}

int main(void) {
  write_twice(&status_reg, 10);
  printf("status %d\n", status_reg);
  int reads = poll(&status_reg, 100);
  printf("reads %d status %d\n", reads, status_reg);
  for (int i = 0; i < 20; i++) ring[i % 8] = (unsigned char)(ring[i % 8] + i);
  unsigned sum = 0;
  for (int i = 0; i < 8; i++) sum += ring[i];
  printf("ring sum %u\n", sum);
  for (long i = 0; i < 1000; i++) counter++;
  printf("counter %ld\n", counter);
  struct device dev = {0, 0, 0};
  for (unsigned i = 1; i <= 5; i++) {
    dev.ctrl = i;
    dev.data = dev.data * 10 + dev.ctrl;
    dev.shadow += dev.data;
  }
  printf("dev %u %u %u\n", dev.ctrl, dev.data, dev.shadow);
  /* A volatile local used as a loop bound is re-read each iteration. */
  volatile int bound = 5;
  int iterations = 0;
  for (int i = 0; i < bound; i++) {
    iterations++;
    if (i == 2) bound = 8;
  }
  printf("iterations %d\n", iterations);
  /* Volatile reads in an expression, each counted. */
  volatile int v = 7;
  int x = v + v * v - v;
  printf("x %d\n", x);
  /* Pointer to volatile cast from an ordinary object. */
  int plain = 3;
  volatile int *vp = &plain;
  *vp *= 5;
  printf("plain %d\n", plain);
  return (int)((sum + dev.data + (unsigned)iterations) % 256);
}
