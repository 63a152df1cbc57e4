/* Nested switches with fall-through at both levels; break leaves only the inner switch. */
#include <stdio.h>

static int trace[64];
static int ntrace;
static void mark(int v) { if (ntrace < 64) trace[ntrace++] = v; }

static int nested(int a, int b) {
  int r = 0;
  switch (a) {
  case 0:
    r += 1;
    /* fall through */
  case 1:
    switch (b) {
    case 0:
      r += 10;
      /* fall through */
    case 1:
      r += 20;
      break;
    case 2:
      r += 30;
      /* fall through */
    default:
      r += 40;
    }
    r += 100; /* reached after the inner switch, then falls into case 2 */
    /* fall through */
  case 2:
    r += 1000;
    break;
  case 3:
    switch (b) {
    case 1:
      return -1;
    }
    r += 5000;
    /* fall through */
  default:
    r += 10000;
  }
  mark(r);
  return r;
}

static int days_left_in_year(int month) {
  /* Classic fall-through accumulation: days in the months from `month` to December. */
  int days = 0;
  switch (month) {
  case 1: days += 31; /* fall through */
  case 2: days += 28; /* fall through */
  case 3: days += 31; /* fall through */
  case 4: days += 30; /* fall through */
  case 5: days += 31; /* fall through */
  case 6: days += 30; /* fall through */
  case 7: days += 31; /* fall through */
  case 8: days += 31; /* fall through */
  case 9: days += 30; /* fall through */
  case 10: days += 31; /* fall through */
  case 11: days += 30; /* fall through */
  case 12: days += 31;
  }
  return days;
}

int main(void) {
  long sum = 0;
  for (int a = 0; a < 5; a++) {
    for (int b = 0; b < 4; b++) {
      int r = nested(a, b);
      printf("%6d", r);
      sum += r;
    }
    printf("\n");
  }
  for (int m = 1; m <= 13; m++) printf("%d ", days_left_in_year(m));
  printf("\n");
  printf("trace %d entries, first %d last %d\n", ntrace, trace[0], trace[ntrace - 1]);
  printf("sum %ld\n", sum);
  return (int)(sum % 256);
}
