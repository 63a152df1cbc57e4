/* File-scope static and non-static globals and functions, tentative definitions, extern
   declarations of objects defined later in the file, and globals initialized with addresses. */
#include <stdio.h>

extern int defined_later;
extern const char *names_later[];
int tentative;
int tentative;
static int hidden = 5;
int visible = 6;
int defined_later = 41;
const char *names_later[] = {"x", "y", "z"};

int *address_of_hidden = &hidden;
static int *const address_of_visible = &visible;
static const char *const *name_cursor = &names_later[1];
static int table[4] = {10, 20, 30, 40};
static int *table_end = table + 4;
static int *table_mid = &table[2];
static long offset = (long)sizeof(table) / (long)sizeof(table[0]);

static int helper(int v) { return v * hidden; }
int exported(int v) { return helper(v) + visible; }
static int (*const dispatch[2])(int) = {helper, exported};

int main(void) {
  printf("tentative %d hidden %d visible %d later %d\n", tentative, hidden, visible, defined_later);
  *address_of_hidden += 1;
  *address_of_visible += 2;
  tentative = 9;
  printf("hidden %d visible %d tentative %d\n", hidden, visible, tentative);
  printf("name_cursor %s %s\n", *name_cursor, name_cursor[1]);
  int sum = 0;
  for (int *p = table; p != table_end; p++) sum += *p;
  printf("table sum %d mid %d offset %ld\n", sum, *table_mid, offset);
  printf("dispatch %d %d\n", dispatch[0](3), dispatch[1](3));
  defined_later++;
  return defined_later + sum % 7;
}
