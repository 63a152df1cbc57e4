/* expect: 6:24: error: unsupported: cleanup function returning a struct or union */
/* A cleanup whose function returns a struct would need a place for the result. */
struct big { long a[4]; };
struct big release(int *p) { struct big b = {{*p}}; return b; }
int main(void) {
  int x __attribute__((cleanup(release))) = 1;
  return x - 1;
}
