/* expect: 6:10: error: unsupported: __builtin_return_address of a level above 1024 */
/* __builtin_frame_address and __builtin_return_address walk the saved
   frame-pointer chain one load per level (vla.cpp); a level that deep is
   refused by name. */
void *caller(void) {
  return __builtin_return_address(2000);
}
