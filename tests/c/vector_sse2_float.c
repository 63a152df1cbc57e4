/* vector_sse2_float.c - the _ps and _pd intrinsics of <xmmintrin.h> and
   <emmintrin.h> as clang 14 defines them: arithmetic, min/max (SSE's operand
   order), sqrt, set/set1/setzero, shuffles, unpacks, bitwise masks,
   compares giving masks and their movemask, conversions (truncating ones
   out of range give the integer indefinite, as the instructions do); and
   the integer set/load/store/extract/insert/cvt intrinsics. */
#include <emmintrin.h>
#include <stdio.h>
#include <string.h>

static void show8(const char *name, __m128i v) {
  unsigned char b[16];
  _mm_storeu_si128((__m128i *)b, v);
  printf("%-10s", name);
  for (int i = 0; i < 16; i++) printf(" %02x", b[i]);
  printf("\n");
}

static void showps(const char *name, __m128 v) {
  float f[4];
  _mm_storeu_ps(f, v);
  printf("%-10s %g %g %g %g\n", name, f[0], f[1], f[2], f[3]);
}

static void showpd(const char *name, __m128d v) {
  double d[2];
  _mm_storeu_pd(d, v);
  printf("%-10s %g %g\n", name, d[0], d[1]);
}

__attribute__((aligned(16))) static int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

int main(void) {
  __m128i a = _mm_set_epi32(0x7fffffff, -5, 1000, 3);
  __m128i b = _mm_setr_epi32(2, -7, 70000, -1);
  show8("set16", _mm_set_epi16(1, 2, 3, 4, 5, 6, 7, -8));
  show8("set8", _mm_setr_epi8(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1));
  show8("set64", _mm_set_epi64x(0x1122334455667788LL, -2));
  show8("set1_16", _mm_set1_epi16(-300));
  show8("set1_64", _mm_set1_epi64x(42));
  show8("load", _mm_load_si128((const __m128i *)table));
  show8("loadu", _mm_loadu_si128((const __m128i *)(table + 1)));
  show8("loadl", _mm_loadl_epi64((const __m128i *)(table + 2)));
  printf("cvt %d %lld %d\n", _mm_cvtsi128_si32(b), (long long)_mm_cvtsi128_si64(a), _mm_extract_epi16(a, 5));
  show8("insert", _mm_insert_epi16(a, 0x1234, 2));
  show8("cvtsi64", _mm_cvtsi64_si128(-3));
  __m128i stored;
  _mm_store_si128(&stored, b);
  show8("store", stored);
  int out[4];
  _mm_storel_epi64((__m128i *)out, a);
  printf("storel %d %d\n", out[0], out[1]);
  __m128 f = _mm_set_ps(4.0f, -3.5f, 2.25f, 1.0f);
  __m128 g = _mm_setr_ps(0.5f, 8.0f, -1.0f, 2.0f);
  showps("addps", _mm_add_ps(f, g));
  showps("subps", _mm_sub_ps(f, g));
  showps("mulps", _mm_mul_ps(f, g));
  showps("divps", _mm_div_ps(f, g));
  showps("minps", _mm_min_ps(f, g));
  showps("maxps", _mm_max_ps(f, g));
  showps("sqrtps", _mm_sqrt_ps(_mm_set1_ps(2.0f)));
  showps("set1ps", _mm_set1_ps(1.5f));
  showps("zerops", _mm_setzero_ps());
  showps("shufps", _mm_shuffle_ps(f, g, _MM_SHUFFLE(3, 2, 1, 0)));
  showps("unpackps", _mm_unpacklo_ps(f, g));
  showps("andps", _mm_and_ps(f, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff))));
  printf("cmpps %x %x %x\n", _mm_movemask_ps(_mm_cmplt_ps(f, g)), _mm_movemask_ps(_mm_cmpge_ps(f, g)),
         _mm_movemask_ps(_mm_cmpneq_ps(f, f)));
  showps("cvtepi32", _mm_cvtepi32_ps(b));
  show8("cvttps", _mm_cvttps_epi32(_mm_set_ps(-3e9f, -2.7f, 2.7f, 1e9f)));
  float fs[4] = {9, 8, 7, 6};
  showps("loadups", _mm_loadu_ps(fs));
  printf("cvtss %g\n", _mm_cvtss_f32(g));
  __m128d d = _mm_set_pd(2.5, -1.0);
  __m128d e = _mm_setr_pd(4.0, 0.25);
  showpd("addpd", _mm_add_pd(d, e));
  showpd("mulpd", _mm_mul_pd(d, e));
  showpd("divpd", _mm_div_pd(d, e));
  showpd("maxpd", _mm_max_pd(d, e));
  showpd("minpd", _mm_min_pd(d, e));
  showpd("sqrtpd", _mm_sqrt_pd(e));
  showpd("shufpd", _mm_shuffle_pd(d, e, 1));
  showpd("unpackhi", _mm_unpackhi_pd(d, e));
  printf("cmppd %x\n", _mm_movemask_pd(_mm_cmple_pd(d, e)));
  printf("cvtsd %g\n", _mm_cvtsd_f64(e));
  showpd("cvtepi32pd", _mm_cvtepi32_pd(b));
  show8("cvttpd", _mm_cvttpd_epi32(d));
  return 0;
}
