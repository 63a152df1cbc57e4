#include <stdio.h>
extern int scanned, ns_scanned;
int scan(const char *s);
int ns_scan(const char *s);
int main(void) {
  int a = scan("aabbxyzq"), b = ns_scan("aabbxyzq"), c = ns_scan("zz");
  printf("%d %d %d scanned %d %d\n", a, b, c, scanned, ns_scanned);
  return 0;
}
