/* __attribute__((cleanup(f))): f(&v) runs at every exit from v's scope, in
   reverse order of declaration: falling off the end, nested scopes, return
   (after the value is computed: the cleanup writes v), break and continue
   in every loop, the scope of a for's init, switch; a cleanup function
   taking void * and one whose result is ignored. Each cleanup prints. */
#include <stdio.h>

static void drop(int *p) {
  printf("~%d ", *p);
  *p = -1; /* return must not see this write */
}
static void drop_void(void *p) { printf("~v%d ", *(int *)p); }
static int drop_result(long *p) {
  printf("~l%ld ", *p);
  return 99;
}

#define CLEANUP(f) __attribute__((cleanup(f), unused)) /* clang warns of unused ones */

static void fall_through(void) {
  int a CLEANUP(drop) = 1;
  int b CLEANUP(drop) = 2;
  {
    int c CLEANUP(drop) = 3;
    printf("inner ");
  }
  printf("outer ");
}

static int return_value(int x) {
  int v CLEANUP(drop) = x * 10;
  if (x > 2) {
    int w CLEANUP(drop) = x;
    return v + w; /* computed before the cleanups run */
  }
  return v;
}

static void loops(void) {
  for (int i = 0; i < 5; i++) {
    int v CLEANUP(drop) = i;
    if (i == 1) continue;
    if (i == 3) break;
    printf("body ");
  }
  printf("| ");
  int j = 0;
  while (j < 3) {
    int w CLEANUP(drop) = 100 + j;
    j++;
    do {
      int z CLEANUP(drop_void) = j;
      if (j == 2) break;
      printf("do ");
    } while (0);
  }
}

static void for_init_scope(void) {
  for (int i CLEANUP(drop) = 7; i < 9; i++) {
    printf("it ");
    if (i == 8) break; /* the init's variable lives until the loop ends */
  }
  printf("after ");
}

static int in_switch(int k) {
  int total = 0;
  switch (k) {
  case 0: {
    int a CLEANUP(drop) = 50;
    total += a;
    break;
  }
  case 1: {
    int b CLEANUP(drop) = 51;
    if (b) return b + 1;
    break;
  }
  default: {
    long c CLEANUP(drop_result) = 52;
    total = (int)c;
  }
  }
  printf("switch-end ");
  return total;
}

int main(void) {
  fall_through();
  printf("\n");
  for (int x = 1; x <= 3; x++) printf("= %d\n", return_value(x));
  loops();
  printf("\n");
  for_init_scope();
  printf("\n");
  for (int k = 0; k < 3; k++) printf("= %d\n", in_switch(k));
  return 0;
}
