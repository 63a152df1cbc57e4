/* expect: 4:12: error: unsupported: '?:' with an omitted middle operand */
/* The GNU ?: with the middle operand left out. */
int first(int a, int b) {
  return a ?: b;
}
