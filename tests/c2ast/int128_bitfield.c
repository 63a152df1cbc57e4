/* expect: 7:5: error: unsupported: bit-field 'x' of 128-bit integer type '__int128' */
/* An __int128 bit-field (gcc allows widths up to 128) is refused by name. */
struct s {
  __int128 x : 70;
} v;
int main(void) {
  v.x = 5;
  return 0;
}
