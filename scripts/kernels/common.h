/* common.h - shared by the benchmark kernels: the scale from argv[1]
   (default: the benchmark size; scripts/bench-code passes a smaller one
   under cachegrind) and a checksum printer. Only C the toolchain supports. */
#include <stdio.h>

static long kernel_scale(int argc, char **argv, long dflt) {
  long v = 0;
  const char *s;
  if (argc < 2) return dflt;
  for (s = argv[1]; *s >= '0' && *s <= '9'; s++) v = v * 10 + (*s - '0');
  return v > 0 ? v : dflt;
}
