/* expect: 4:12: error: expected ';' at end of declaration */
/* A syntax error: clang's message, in c2ast's format. */
int main(void) {
  int x = 1
  return x;
}
