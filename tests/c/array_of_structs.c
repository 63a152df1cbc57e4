/* Arrays of structs: initialization, sorting by a key, searching, and aggregate statistics. */
#include <stdio.h>
#include <string.h>

struct employee {
  char name[12];
  int age;
  long salary;
  unsigned char dept;
};

static struct employee staff[] = {
    {"alice", 34, 72000, 1}, {"bob", 45, 65000, 2},   {"carol", 29, 81000, 1},
    {"dave", 52, 58000, 3},  {"erin", 38, 90000, 2},  {"frank", 41, 61000, 3},
    {"grace", 26, 77000, 1},
};

static void sort_by_salary(struct employee *e, int n) {
  for (int i = 1; i < n; i++) {
    struct employee key = e[i];
    int j = i - 1;
    while (j >= 0 && e[j].salary < key.salary) {
      e[j + 1] = e[j];
      j--;
    }
    e[j + 1] = key;
  }
}

static const struct employee *find(const struct employee *e, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(e[i].name, name) == 0) return &e[i];
  return 0;
}

int main(void) {
  int n = (int)(sizeof staff / sizeof staff[0]);
  long by_dept[4] = {0};
  int count[4] = {0};
  for (int i = 0; i < n; i++) {
    by_dept[staff[i].dept] += staff[i].salary;
    count[staff[i].dept]++;
  }
  for (int d = 1; d <= 3; d++) printf("dept %d: %d people, average %ld\n", d, count[d], by_dept[d] / count[d]);
  sort_by_salary(staff, n);
  for (int i = 0; i < n; i++) printf("%-6s %2d %6ld\n", staff[i].name, staff[i].age, staff[i].salary);
  const struct employee *e = find(staff, n, "dave");
  printf("dave at %d age %d\n", (int)(e - staff), e->age);
  printf("zed found %d\n", find(staff, n, "zed") != 0);
  int oldest = 0;
  for (int i = 1; i < n; i++)
    if (staff[i].age > staff[oldest].age) oldest = i;
  printf("oldest %s\n", staff[oldest].name);
  printf("sizeof employee %d\n", (int)sizeof(struct employee));
  return (int)(e - staff) * 16 + oldest;
}
