/* Part of the unity build; b_twice is used by main.c, the rest is not. */
int b_counter = 40;
int *b_pointer = &b_counter;
int b_twice(int x) { return 2 * x; }
void b_bump(void) { ++*b_pointer; }
