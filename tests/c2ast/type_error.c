/* expect: 4:10: error: use of undeclared identifier 'y' */
/* A semantic error found by clang. */
int main(void) {
  return y;
}
