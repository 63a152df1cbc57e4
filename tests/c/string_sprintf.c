/* sprintf and snprintf into buffers: building strings, truncation, return values. */
#include <stdio.h>
#include <string.h>

static void format_money(char *out, size_t size, long cents) {
  const char *sign = cents < 0 ? "-" : "";
  unsigned long a = cents < 0 ? 0ul - (unsigned long)cents : (unsigned long)cents;
  snprintf(out, size, "%s$%lu.%02lu", sign, a / 100, a % 100);
}

static int join(char *out, size_t size, const int *v, int n) {
  size_t used = 0;
  out[0] = 0;
  for (int i = 0; i < n; i++) {
    int w = snprintf(out + used, size - used, i ? ",%d" : "%d", v[i]);
    if (w < 0 || (size_t)w >= size - used) return -1;
    used += (size_t)w;
  }
  return (int)used;
}

static char ten[] = "0123456789";

int main(void) {
  char buf[64];
  int len = sprintf(buf, "%d-%s-%c-%x", 12, "ab", 'z', 255u);
  printf("%s (%d)\n", buf, len);
  len = sprintf(buf, "%5d|%-5d|%05d", 7, 7, 7);
  printf("%s (%d)\n", buf, len);
  /* snprintf truncates and returns the length it would have written. */
  char small[8];
  int want = snprintf(small, sizeof small, "%s", ten);
  printf("small=%s want=%d strlen=%d\n", small, want, (int)strlen(small));
  want = snprintf(small, 1, "xyz");
  printf("one-byte buffer: [%s] want=%d\n", small, want);
  want = snprintf(NULL, 0, "%ld", -1234567L);
  printf("length only: %d\n", want);
  long amounts[] = {0, 5, 199, -250, 1234567, -1};
  for (int i = 0; i < 6; i++) {
    format_money(buf, sizeof buf, amounts[i]);
    printf("%ld -> %s\n", amounts[i], buf);
  }
  int v[] = {3, -14, 159, 2653, -58979};
  int r = join(buf, sizeof buf, v, 5);
  printf("join: %s (%d)\n", buf, r);
  r = join(small, sizeof small, v, 5);
  printf("join small: %d\n", r);
  /* Format into a buffer then print pieces of it. */
  sprintf(buf, "%08llx%08llx", 0x12345678ull, 0x9abcdef0ull);
  printf("%.4s %.4s %s\n", buf, buf + 4, buf + 8);
  return (int)strlen(buf) + want;
}
