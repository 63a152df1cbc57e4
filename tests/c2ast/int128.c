/* expect: 4:12: error: unsupported: 128-bit integer type '__int128' */
/* __int128. */
int main(void) {
  __int128 wide = 1;
  return 0;
}
