/* expect: 4:11: error: unsupported: statement expression used as a value */
/* A GNU statement expression whose value is used. */
int main(void) {
  int x = ({ int y = 2; y * 3; });
  return x;
}
