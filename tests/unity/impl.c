/* Included by unity.c: every external definition must reach its object. */
int counter = 5;
int zeroed;
const int limit = 9;
static int hidden(int x) { return x * 2; }
int twice(int x) { return hidden(x) + counter; }
