/* expect: 5:24: error: unsupported: attribute 'cleanup' */
/* cleanup (a call at every exit from the scope) is not implemented yet. */
void release(int *p) { *p = 0; }
int main(void) {
  int x __attribute__((cleanup(release))) = 1;
  return x - 1;
}
