/* Static initializers made of addresses: string literals plus offsets, array elements, one
   past the end, struct members, functions inside structs, pointers to pointers, and char
   arrays sized exactly to a string without its terminator. */
#include <stdio.h>

static int nums[6] = {10, 20, 30, 40, 50, 60};
static const char *tail = &"abcdef"[2];
static int *third = &nums[2];
static int *end = nums + 6;
static int *const *pp = &third;
static char exact[5] = "hello";          /* no terminating NUL */
static char roomy[8] = "hi";

struct cfg { const char *name; int *value; int (*fn)(int); const struct cfg *next; };
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
static const struct cfg last = {"last", &nums[5], thrice, 0};
static const struct cfg first = {"first", nums + 1, twice, &last};
static const struct cfg *const chain = &first;

struct point { int x, y; };
static struct point pts[3] = {{1, 2}, {3, 4}, {5, 6}};
static int *py = &pts[1].y;
static struct point *pend = &pts[3];
static const char *const words[] = {&"zero"[1], "one", &"two"[1] + 1};
static long distance = (long)(&nums[5] - &nums[1]);

int main(void) {
  printf("tail %s third %d end-1 %d **pp %d\n", tail, *third, end[-1], **pp);
  printf("exact %.5s sizeof %d roomy %s [%d %d]\n", exact, (int)sizeof exact, roomy, roomy[2], roomy[7]);
  int total = 0;
  for (const struct cfg *c = chain; c; c = c->next) {
    printf("%s: value %d fn %d\n", c->name, *c->value, c->fn(*c->value));
    total += c->fn(*c->value);
  }
  *py += 100;
  printf("pts[1].y %d pend - pts %d\n", pts[1].y, (int)(pend - pts));
  printf("words %s %s %s distance %ld\n", words[0], words[1], words[2], distance);
  int sum = 0;
  for (int *p = nums; p != end; p++) sum += *p;
  *third = -1;
  printf("sum %d nums[2] %d\n", sum, nums[2]);
  return total % 256;
}
