/* C library calls sonopt knows by name (stages/sonopt/libcalls.cpp): strlen,
   strcmp, strncmp and memcmp of constant strings and buffers, and abs, labs,
   llabs of constants fold; calls it cannot fold (writable arrays, unknown
   pointers, bytes past an object's known contents) stay calls. Comparison
   results are printed as signs: C fixes only the sign. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sign(int x) { return (x > 0) - (x < 0); }

static const char greeting[] = "hello, world";
static const char embedded[] = "ab\0cd";
static const unsigned char high[] = {0x80, 0x01, 0};
static const unsigned char low[] = {0x01, 0x80, 0};
static const char padded[16] = "pad";
char writable[16] = "mutable";

__attribute__((noinline)) static const char *launder(const char *p) { return p; }

static void lengths(void) {
  printf("strlen: %zu %zu %zu %zu %zu\n", strlen("hello"), strlen(""), strlen(greeting), strlen(greeting + 7),
         strlen(embedded));
  printf("strlen: %zu %zu %zu\n", strlen(embedded + 3), strlen(padded), strlen(padded + 5));
  printf("strlen: %zu %zu\n", strlen(&"tab\there"[1]), strlen(&greeting[12]));
  writable[3] = 0;
  printf("strlen writable: %zu\n", strlen(writable));
  printf("strlen laundered: %zu\n", strlen(launder("laundered")));
}

static void comparisons(void) {
  printf("strcmp: %d %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("abd", "abc")),
         sign(strcmp("abc", "abc")), sign(strcmp("ab", "abc")), sign(strcmp("", "")));
  printf("strcmp unsigned: %d %d\n", sign(strcmp((const char *)high, (const char *)low)),
         sign(strcmp((const char *)low, (const char *)high)));
  printf("strcmp embedded: %d %d\n", sign(strcmp(embedded, "ab")), sign(strcmp(embedded + 3, "cd")));
  printf("strncmp: %d %d %d %d %d\n", sign(strncmp("abcdef", "abcxyz", 3)), sign(strncmp("abcdef", "abcxyz", 4)),
         sign(strncmp("abc", "abd", 0)), sign(strncmp("ab", "ab", 100)), sign(strncmp("ab", "abc", 100)));
  printf("memcmp: %d %d %d %d\n", sign(memcmp("abcdef", "abcxyz", 3)), sign(memcmp("abcdef", "abcxyz", 4)),
         sign(memcmp(high, low, 2)), sign(memcmp(embedded, "ab\0cd", 6)));
  printf("memcmp zero: %d\n", sign(memcmp(greeting, launder("zzz"), 0)));
  writable[0] = 'n';
  printf("strcmp writable: %d\n", sign(strcmp(writable, "mut")));
  printf("strcmp laundered: %d %d\n", sign(strcmp(launder("x"), "x")), sign(strcmp("y", launder("x"))));
}

static void absolutes(void) {
  printf("abs: %d %d %d %d\n", abs(-3), abs(3), abs(0), abs(-2147483647));
  printf("labs: %ld %ld %ld\n", labs(-5L), labs(-9223372036854775807L), labs(7L));
  printf("llabs: %lld %lld\n", llabs(-11LL), llabs(12LL));
}

int main(void) {
  lengths();
  comparisons();
  absolutes();
  return 0;
}
