/* expect: 5:3: error: indirect goto in function with no address-of-label expressions */
/* A computed goto can only reach an address-taken label of its own
   function; clang refuses one in a function without any (labels.cpp). */
int jump(void *p) {
  goto *p;
out:
  return 0;
}
