/* vector_sse2.c - the integer <emmintrin.h> intrinsics real code uses, as
   clang 14's header defines them (vector operations and __builtin_ia32_*
   builtins): loads and stores (aligned, unaligned), set/set1/setzero,
   add/sub/mullo, and/or/xor/andnot, the immediate and register shifts
   (counts in and out of range), cmpeq/cmpgt/cmplt, movemask, unpack, packs,
   shuffles, min/max, sad, madd, mul_epu32, saturating adds, avg, byte
   shifts, si128 <-> int, and a byte search and a byte sum as string code
   writes them. vector_sse2_float.c has the _ps/_pd family. */
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
  char text[64];
  memset(text, 'a', sizeof text);
  text[37] = 'z';
  printf("find %d %d\n", find_byte(text, 64, 'z'), find_byte(text, 64, 'q'));
  unsigned char bytes[48];
  for (int i = 0; i < 48; i++) bytes[i] = (unsigned char)(i * 7);
  printf("sum %d\n", sum_bytes(bytes, 48));
  return 0;
}
