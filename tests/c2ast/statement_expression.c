/* expect: 6:16: error: unsupported: statement expression of struct type with a cleanup inside */
/* A statement expression's struct value would have to outlive the cleanup. */
struct s { int a[4]; };
void release(int *p) { *p = 0; }
int main(void) {
  struct s v = ({ int k __attribute__((cleanup(release))) = 1; struct s t = {{k}}; t; });
  return v.a[0] - 1;
}
