/* const and volatile qualifiers on objects, pointees and pointers themselves. */
#include <stdio.h>

static const int table[5] = {2, 3, 5, 7, 11};
static volatile int ticks;
static const char *const greeting = "hi";

static int sum_const(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

static void tick(volatile int *counter, int n) {
  for (int i = 0; i < n; i++) (*counter)++;
}

int main(void) {
  int data[4] = {1, 2, 3, 4};
  int *const fixed = data;      /* the pointer cannot change, the ints can */
  const int *view = data;        /* the ints cannot change through view */
  const int *const both = &data[3];
  fixed[1] = 20;
  view++;
  printf("fixed[1] %d *view %d *both %d\n", fixed[1], *view, *both);
  printf("sum table %d sum data %d\n", sum_const(table, 5), sum_const(data, 4));
  tick(&ticks, 1000);
  printf("ticks %d\n", ticks);
  /* A volatile local read repeatedly. */
  volatile int v = 0;
  for (int i = 0; i < 10; i++) v += i;
  int copy = v;
  printf("v %d copy %d\n", v, copy);
  /* Pointer to volatile and volatile pointer. */
  volatile unsigned char reg = 0;
  volatile unsigned char *preg = &reg;
  unsigned char *volatile vp = (unsigned char *)&data[0];
  for (int i = 0; i < 5; i++) *preg = (unsigned char)(*preg * 3 + 1);
  vp[0] = 9;
  printf("reg %u data[0] %d\n", reg, data[0]);
  /* const locals computed at run time. */
  const int n = sum_const(data, 4);
  const long big = (long)n * 1000;
  printf("n %d big %ld greeting %s\n", n, big, greeting);
  /* Casting away const on an object that is not const itself is fine. */
  const int *cp = &data[2];
  int *mp = (int *)cp;
  *mp = 30;
  printf("data[2] %d\n", data[2]);
  /* Volatile struct member. */
  struct { volatile int count; int plain; } st = {0, 0};
  for (int i = 0; i < 7; i++) { st.count++; st.plain += st.count; }
  printf("st %d %d\n", st.count, st.plain);
  return (n + ticks + reg) % 256;
}
