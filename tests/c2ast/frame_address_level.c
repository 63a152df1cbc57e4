/* expect: 5:10: error: unsupported: __builtin_return_address of a level other than 0 */
/* __builtin_frame_address and __builtin_return_address of the caller's
   frames (levels 1 and up) are refused by name, as gcc's manual allows. */
void *caller(void) {
  return __builtin_return_address(1);
}
