/* switch on a char (promoted to int): cases sharing a statement,
   fall-through, default in the middle, break. */
int classify(char c) {
  int kind = 0;
  switch (c) {
  case 'a':
  case 'e':
    kind = 1;
  default:
    kind += 10;
    break;
  case '0':
    kind = 2;
  }
  return kind;
}
