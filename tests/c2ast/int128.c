/* expect: 5:11: error: unsupported: switch on a 128-bit integer */
/* __int128 is supported (stages/c2ast/int128.cpp), but not as a switch's
   controlling expression. */
int main(int argc, char **argv) {
  switch ((__int128)argc << 70) {
    case 0: return 1;
    default: return argv != 0;
  }
}
