/* Definitions from a header (tests/c2ast/include/helper.h, found with -I)
   that the main file uses; HELPER_SCALE comes from -D. */
#include <stdio.h>
#include "helper.h"
int main(void) {
  helper_counter += helper_twice(HELPER_SCALE);
  printf("%d\n", helper_counter);
  return 0;
}
