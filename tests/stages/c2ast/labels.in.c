/* Labels as values: &&L is the function's symbol plus L's number among its
   address-taken labels; goto *p a switch on p minus the function's symbol;
   label differences in a static initializer are integer constants. */
int step(int op, int x) {
  static const int offsets[] = {&&inc - &&inc, &&dbl - &&inc, &&neg - &&inc};
  void *target = &&inc + offsets[op];
  goto *target;
inc:
  return x + 1;
dbl:
  return x * 2;
neg:
  return -x;
}
