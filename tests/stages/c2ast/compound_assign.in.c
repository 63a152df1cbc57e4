/* Compound assignment and ++/--: through a temporary for the address when
   evaluating it twice could differ (a[i++]), in place otherwise; a char
   computed in int and truncated back; a shift; a volatile. */
volatile int ticks;

int update(int *a, int i, unsigned char c) {
  a[i++] += 5;
  c *= 3;
  i <<= 2;
  ticks++;
  int old = i--;
  return a[i] + c + old;
}
