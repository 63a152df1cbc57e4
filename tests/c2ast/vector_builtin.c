/* expect: 5:24: error: unsupported: builtin '__builtin_ia32_cvtps2dq' */
/* An SSE builtin vectors.cpp does not write out is refused by name. */
#include <emmintrin.h>
int main(void) {
  __m128i r = (__m128i)__builtin_ia32_cvtps2dq((__v4sf)_mm_set1_ps(1.5f));
  return _mm_cvtsi128_si32(r);
}
