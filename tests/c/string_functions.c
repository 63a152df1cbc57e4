/* The libc string and memory functions pipe-run provides: strlen, strcmp, strcpy, memcpy,
   memmove (overlapping both ways), memset, memcmp. */
#include <stdio.h>
#include <string.h>

static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
  char buf[40];
  strcpy(buf, "hello, world");
  printf("%s %d\n", buf, (int)strlen(buf));
  printf("strcmp: %d %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("abd", "abc")),
         sign(strcmp("abc", "abc")), sign(strcmp("ab", "abc")), sign(strcmp("", "")));
  /* strcmp compares as unsigned char. */
  printf("strcmp high byte: %d\n", sign(strcmp("\xff", "a")));
  /* memmove overlapping forward and backward. */
  char m[] = "0123456789";
  memmove(m + 2, m, 5);
  printf("forward  %s\n", m);
  strcpy(m, "0123456789");
  memmove(m, m + 3, 6);
  printf("backward %s\n", m);
  /* memcpy of a struct and of part of an array. */
  struct { int a; char b[3]; long c; } x = {7, "hi", 99}, y;
  memset(&y, 0, sizeof y);
  memcpy(&y, &x, sizeof x);
  printf("y %d %s %ld\n", y.a, y.b, y.c);
  int src[6] = {1, 2, 3, 4, 5, 6}, dst[6] = {0};
  memcpy(dst + 1, src + 2, 3 * sizeof(int));
  for (int i = 0; i < 6; i++) printf("%d ", dst[i]);
  printf("\n");
  /* memset with values that need truncating to a byte. */
  unsigned char bytes[8];
  memset(bytes, 0x1FF, sizeof bytes);
  memset(bytes + 4, -2, 2);
  for (int i = 0; i < 8; i++) printf("%02x", bytes[i]);
  printf("\n");
  int ints[4];
  memset(ints, 0xFF, sizeof ints);
  printf("ints[2] %d\n", ints[2]);
  /* memcmp is unsigned and stops at the length. */
  printf("memcmp: %d %d %d\n", sign(memcmp("abcX", "abcY", 3)), sign(memcmp("abcX", "abcY", 4)),
         sign(memcmp("\x80", "\x01", 1)));
  /* Return values are the destination. */
  char *r1 = strcpy(buf, "ret");
  void *r2 = memset(buf + 3, 0, 1);
  printf("returns dst: %d %d\n", r1 == buf, r2 == buf + 3);
  /* Build a string piece by piece. */
  char out[64] = "";
  const char *parts[] = {"alpha", "-", "beta", "-", "gamma"};
  size_t len = 0;
  for (int i = 0; i < 5; i++) {
    size_t n = strlen(parts[i]);
    memcpy(out + len, parts[i], n + 1);
    len += n;
  }
  printf("%s %d\n", out, (int)len);
  return (int)len + sign(strcmp(out, "alpha"));
}
