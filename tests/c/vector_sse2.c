/* vector_sse2.c - the <emmintrin.h> intrinsics real code uses, as clang 14's
   header defines them (vector operations and __builtin_ia32_* builtins):
   loads and stores (aligned, unaligned), set/set1/setzero, add/sub/mullo,
   and/or/xor/andnot, the immediate and register shifts (counts in and out of
   range), cmpeq/cmpgt/cmplt, movemask, unpack, packs, shuffle_epi32/lo/hi,
   min/max, sad, madd, mul_epu32, saturating adds, avg, byte shifts, the
   conversions between si128 and int, and the _ps/_pd family. */
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

/* a byte search, as string code does it */
static int find_byte(const char *s, int n, char c) {
  __m128i needle = _mm_set1_epi8(c);
  for (int i = 0; i + 16 <= n; i += 16) {
    __m128i chunk = _mm_loadu_si128((const __m128i *)(s + i));
    int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, needle));
    if (mask) return i + __builtin_ctz(mask);
  }
  return -1;
}

static int sum_bytes(const unsigned char *p, int n) {
  __m128i acc = _mm_setzero_si128();
  for (int i = 0; i + 16 <= n; i += 16)
    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(p + i)), _mm_setzero_si128()));
  return _mm_cvtsi128_si32(acc) + _mm_cvtsi128_si32(_mm_srli_si128(acc, 8));
}

__attribute__((aligned(16))) static int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

int main(void) {
  __m128i a = _mm_set_epi32(0x7fffffff, -5, 1000, 3);
  __m128i b = _mm_setr_epi32(2, -7, 70000, -1);
  show8("add32", _mm_add_epi32(a, b));
  show8("sub32", _mm_sub_epi32(a, b));
  show8("mullo32", _mm_mullo_epi16(a, b));
  show8("add64", _mm_add_epi64(a, b));
  show8("sub64", _mm_sub_epi64(a, b));
  show8("add8", _mm_add_epi8(a, b));
  show8("add16", _mm_add_epi16(a, b));
  show8("and", _mm_and_si128(a, b));
  show8("or", _mm_or_si128(a, b));
  show8("xor", _mm_xor_si128(a, b));
  show8("andnot", _mm_andnot_si128(a, b));
  show8("slli16", _mm_slli_epi16(a, 3));
  show8("slli32", _mm_slli_epi32(a, 31));
  show8("slli32big", _mm_slli_epi32(a, 32));
  show8("slli64", _mm_slli_epi64(a, 17));
  show8("srli16", _mm_srli_epi16(a, 15));
  show8("srli32", _mm_srli_epi32(b, 4));
  show8("srli64", _mm_srli_epi64(b, 63));
  show8("srai16", _mm_srai_epi16(b, 2));
  show8("srai32", _mm_srai_epi32(b, 40));
  show8("sll32", _mm_sll_epi32(a, _mm_cvtsi32_si128(4)));
  show8("srl64", _mm_srl_epi64(b, _mm_cvtsi32_si128(70)));
  show8("sra16", _mm_sra_epi16(b, _mm_cvtsi32_si128(1)));
  show8("cmpeq8", _mm_cmpeq_epi8(a, b));
  show8("cmpeq32", _mm_cmpeq_epi32(a, _mm_set_epi32(0x7fffffff, 0, 1000, 0)));
  show8("cmpgt32", _mm_cmpgt_epi32(a, b));
  show8("cmpgt8", _mm_cmpgt_epi8(a, b));
  show8("cmplt16", _mm_cmplt_epi16(a, b));
  printf("movemask %04x %04x\n", _mm_movemask_epi8(a), _mm_movemask_epi8(b));
  show8("unpacklo8", _mm_unpacklo_epi8(a, b));
  show8("unpackhi8", _mm_unpackhi_epi8(a, b));
  show8("unpacklo16", _mm_unpacklo_epi16(a, b));
  show8("unpackhi32", _mm_unpackhi_epi32(a, b));
  show8("unpacklo64", _mm_unpacklo_epi64(a, b));
  show8("packs16", _mm_packs_epi16(a, b));
  show8("packs32", _mm_packs_epi32(a, b));
  show8("packus16", _mm_packus_epi16(a, b));
  show8("shuf32", _mm_shuffle_epi32(a, _MM_SHUFFLE(0, 1, 2, 3)));
  show8("shuflo", _mm_shufflelo_epi16(a, 0x1b));
  show8("shufhi", _mm_shufflehi_epi16(b, 0x4e));
  show8("minu8", _mm_min_epu8(a, b));
  show8("maxu8", _mm_max_epu8(a, b));
  show8("mini16", _mm_min_epi16(a, b));
  show8("maxi16", _mm_max_epi16(a, b));
  show8("sad", _mm_sad_epu8(a, b));
  show8("madd", _mm_madd_epi16(a, b));
  show8("mulepu32", _mm_mul_epu32(a, b));
  show8("mulhi16", _mm_mulhi_epi16(a, b));
  show8("mulhiu16", _mm_mulhi_epu16(a, b));
  show8("adds8", _mm_adds_epi8(a, b));
  show8("adds16", _mm_adds_epi16(a, b));
  show8("addsu8", _mm_adds_epu8(a, b));
  show8("subsu16", _mm_subs_epu16(a, b));
  show8("subs8", _mm_subs_epi8(a, b));
  show8("avg8", _mm_avg_epu8(a, b));
  show8("avg16", _mm_avg_epu16(a, b));
  show8("bslli", _mm_slli_si128(a, 5));
  show8("bsrli", _mm_srli_si128(a, 3));
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

  char text[64];
  memset(text, 'a', sizeof text);
  text[37] = 'z';
  printf("find %d %d\n", find_byte(text, 64, 'z'), find_byte(text, 64, 'q'));
  unsigned char bytes[48];
  for (int i = 0; i < 48; i++) bytes[i] = (unsigned char)(i * 7);
  printf("sum %d\n", sum_bytes(bytes, 48));
  return 0;
}
