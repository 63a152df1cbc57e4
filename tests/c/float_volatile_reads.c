/* Volatile float and double objects read for nothing (each read must
   happen, as one access of its width, and needs no register), read into
   values, and written; with integer volatiles beside them. */
#include <stdio.h>

volatile float vf = 1.5f;
volatile double vd = 2.25;
volatile int vi = 7;
volatile char vc = 'x';

static int pick(int a, int b) {
  int c = a < b;
  vd;
  vf;
  vi;
  vc;
  (void)vd;
  return c ? 10 : 20;
}

int main(void) {
  double sum = 0.0;
  for (int i = 0; i < 4; i++) {
    vd;
    sum += vd * i;
    vf = (float)sum;
    vf;
  }
  printf("%d %d %.3f %.3f %d\n", pick(1, 2), pick(3, 2), sum, (double)vf, vi + vc);
  return 0;
}
