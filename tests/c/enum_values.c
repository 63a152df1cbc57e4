/* Enums: implicit and explicit values, negative values, enums as ints, in switches and arrays. */
#include <stdio.h>

enum color { RED, GREEN, BLUE, COLOR_COUNT };
enum level { LOW = -5, MID, HIGH = 10, TOP, MAX_LEVEL = TOP * 2 };
enum flags { F_READ = 1, F_WRITE = 2, F_EXEC = 4, F_ALL = F_READ | F_WRITE | F_EXEC };
typedef enum { MON = 1, TUE, WED, THU, FRI, SAT, SUN } weekday;

static const char *color_names[COLOR_COUNT] = {"red", "green", "blue"};

static const char *day_kind(weekday d) {
  switch (d) {
  case SAT:
  case SUN:
    return "weekend";
  default:
    return "weekday";
  }
}

static int perms(enum flags f) {
  int n = 0;
  if (f & F_READ) n += 100;
  if (f & F_WRITE) n += 10;
  if (f & F_EXEC) n += 1;
  return n;
}

int main(void) {
  enum color c;
  for (c = RED; c < COLOR_COUNT; c++) printf("%d %s\n", c, color_names[c]);
  printf("LOW %d MID %d HIGH %d TOP %d MAX %d\n", LOW, MID, HIGH, TOP, MAX_LEVEL);
  printf("F_ALL %d perms %d %d %d\n", F_ALL, perms(F_ALL), perms(F_READ | F_EXEC), perms(0));
  weekday d;
  int weekend = 0;
  for (d = MON; d <= SUN; d++) {
    printf("day %d %s\n", d, day_kind(d));
    if (day_kind(d)[4] == 'e') weekend++;
  }
  printf("sizeof(enum color) %d\n", (int)sizeof(enum color));
  /* Enum constants in arithmetic and array sizes. */
  int counts[COLOR_COUNT * 2] = {0};
  for (int i = 0; i < 20; i++) counts[i % (COLOR_COUNT * 2)] += i;
  for (int i = 0; i < COLOR_COUNT * 2; i++) printf("%d ", counts[i]);
  printf("\n");
  enum level lv = LOW;
  lv = (enum level)(lv + 3);
  printf("lv %d below MID: %d\n", lv, lv < MID);
  return weekend + TOP;
}
