// eval_float_cpu.cpp - common/ir/eval_float.h against the SSE2 instructions it
// describes.
//
// tests/test_eval_x64.py compiles this with g++ (x86-64 only) and runs it.
// Each floating-point meaning is run on the real CPU with inline assembly
// (addsd/ss subsd mulsd divsd sqrtsd, xorps/andps with the sign mask,
// ucomisd/ucomiss read through setcc, cvtsi2sd/ss, cvttsd2si, cvtss2sd,
// cvtsd2ss, and gcc's unsigned 64-bit sequences) on edge values (zeros of
// both signs, subnormals, the largest and smallest numbers, infinities,
// quiet and signalling NaNs with payloads, values at the integer limits)
// and random bit patterns, and the resulting bit patterns are compared with
// the model's. MXCSR is the default (round to nearest even, no FTZ/DAZ).
// Prints one line per mismatch and exits 1 if there is any.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "ir/eval_float.h"

using namespace pl;

namespace {

int failures = 0;
long checks = 0;

void expect(const char* what, uint64_t a, uint64_t b, uint64_t got, uint64_t want) {
  ++checks;
  if (got == want) return;
  if (++failures <= 40)
    std::printf("MISMATCH %s a=%#llx b=%#llx: cpu %#llx, model %#llx\n", what, (unsigned long long)a,
                (unsigned long long)b, (unsigned long long)got, (unsigned long long)want);
}

// ---- the instructions ---------------------------------------------------------------
#define SSE_BIN(NAME, INSN)                                                    \
  uint64_t hw_##NAME##sd(uint64_t a, uint64_t b) {                             \
    asm(INSN "sd %1, %0" : "+x"(a) : "x"(b));                                  \
    return a;                                                                  \
  }                                                                            \
  uint64_t hw_##NAME##ss(uint64_t a, uint64_t b) {                             \
    uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b);       \
    float fx = std::bit_cast<float>(x), fy = std::bit_cast<float>(y);          \
    asm(INSN "ss %1, %0" : "+x"(fx) : "x"(fy));                                \
    return std::bit_cast<uint32_t>(fx);                                        \
  }
SSE_BIN(add, "add")
SSE_BIN(sub, "sub")
SSE_BIN(mul, "mul")
SSE_BIN(div, "div")
#undef SSE_BIN

uint64_t hw_sqrtsd(uint64_t a) {
  double d = std::bit_cast<double>(a), r = 0;
  asm("xorpd %0, %0\n\tsqrtsd %1, %0" : "=&x"(r) : "x"(d));
  return std::bit_cast<uint64_t>(r);
}
uint64_t hw_sqrtss(uint64_t a) {
  float f = std::bit_cast<float>(static_cast<uint32_t>(a)), r = 0;
  asm("xorps %0, %0\n\tsqrtss %1, %0" : "=&x"(r) : "x"(f));
  return std::bit_cast<uint32_t>(r);
}

// The sign-mask instructions of fneg and fabs.
uint64_t hw_negsd(uint64_t a) {
  double d = std::bit_cast<double>(a), m = std::bit_cast<double>(kF64SignBit);
  asm("xorpd %1, %0" : "+x"(d) : "x"(m));
  return std::bit_cast<uint64_t>(d);
}
uint64_t hw_abssd(uint64_t a) {
  double d = std::bit_cast<double>(a), m = std::bit_cast<double>(~kF64SignBit);
  asm("andpd %1, %0" : "+x"(d) : "x"(m));
  return std::bit_cast<uint64_t>(d);
}
uint64_t hw_negss(uint64_t a) {
  float f = std::bit_cast<float>(static_cast<uint32_t>(a)), m = std::bit_cast<float>(kF32SignBit);
  asm("xorps %1, %0" : "+x"(f) : "x"(m));
  return std::bit_cast<uint32_t>(f);
}
uint64_t hw_absss(uint64_t a) {
  float f = std::bit_cast<float>(static_cast<uint32_t>(a)), m = std::bit_cast<float>(~kF32SignBit);
  asm("andps %1, %0" : "+x"(f) : "x"(m));
  return std::bit_cast<uint32_t>(f);
}

// ucomisd a, b: the outcome from ZF PF CF (unordered 111, less 001, equal
// 100, greater 000), as the code generator will read it.
FloatOrder hw_order(uint64_t a, uint64_t b, bool f32) {
  uint8_t zf, pf, cf;
  if (f32) {
    float x = std::bit_cast<float>(static_cast<uint32_t>(a)), y = std::bit_cast<float>(static_cast<uint32_t>(b));
    asm("ucomiss %4, %3\n\tsete %0\n\tsetp %1\n\tsetb %2" : "=r"(zf), "=r"(pf), "=r"(cf) : "x"(x), "x"(y) : "cc");
  } else {
    double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
    asm("ucomisd %4, %3\n\tsete %0\n\tsetp %1\n\tsetb %2" : "=r"(zf), "=r"(pf), "=r"(cf) : "x"(x), "x"(y) : "cc");
  }
  if (pf) return FloatOrder::Unordered;
  if (zf) return FloatOrder::Equal;
  return cf ? FloatOrder::Less : FloatOrder::Greater;
}

uint64_t hw_cvtss2sd(uint64_t a) {
  float f = std::bit_cast<float>(static_cast<uint32_t>(a));
  double r = 0;
  asm("xorpd %0, %0\n\tcvtss2sd %1, %0" : "=&x"(r) : "x"(f));
  return std::bit_cast<uint64_t>(r);
}
uint64_t hw_cvtsd2ss(uint64_t a) {
  double d = std::bit_cast<double>(a);
  float r = 0;
  asm("xorps %0, %0\n\tcvtsd2ss %1, %0" : "=&x"(r) : "x"(d));
  return std::bit_cast<uint32_t>(r);
}

// cvtsi2sd/ss of a signed 32- or 64-bit integer (narrower ones are
// sign-extended to 32 bits first, as the code generator does).
uint64_t hw_sitofp(int64_t v, bool wide, bool to_f32) {
  if (to_f32) {
    float r = 0;
    if (wide) asm("xorps %0, %0\n\tcvtsi2ssq %1, %0" : "=&x"(r) : "r"(v));
    else asm("xorps %0, %0\n\tcvtsi2ssl %k1, %0" : "=&x"(r) : "r"(v));
    return std::bit_cast<uint32_t>(r);
  }
  double r = 0;
  if (wide) asm("xorpd %0, %0\n\tcvtsi2sdq %1, %0" : "=&x"(r) : "r"(v));
  else asm("xorpd %0, %0\n\tcvtsi2sdl %k1, %0" : "=&x"(r) : "r"(v));
  return std::bit_cast<uint64_t>(r);
}
// Unsigned 64-bit to double: the sign-clear case converts directly; else
// (x >> 1) | (x & 1) is converted and doubled (gcc's sequence). Narrower
// unsigned values are zero-extended to 64 bits and converted signed.
uint64_t hw_uitofp64(uint64_t v, bool to_f32) {
  if (static_cast<int64_t>(v) >= 0) return hw_sitofp(static_cast<int64_t>(v), true, to_f32);
  uint64_t half = (v >> 1) | (v & 1);
  if (to_f32) {
    float r = std::bit_cast<float>(static_cast<uint32_t>(hw_sitofp(static_cast<int64_t>(half), true, true)));
    asm("addss %0, %0" : "+x"(r));
    return std::bit_cast<uint32_t>(r);
  }
  double r = std::bit_cast<double>(hw_sitofp(static_cast<int64_t>(half), true, false));
  asm("addsd %0, %0" : "+x"(r));
  return std::bit_cast<uint64_t>(r);
}
// cvttsd2si (64-bit destination) of an f64 or f32 value.
int64_t hw_cvtt(uint64_t a, bool f32) {
  int64_t r;
  if (f32) {
    float f = std::bit_cast<float>(static_cast<uint32_t>(a));
    asm("cvttss2siq %1, %0" : "=r"(r) : "x"(f));
  } else {
    double d = std::bit_cast<double>(a);
    asm("cvttsd2siq %1, %0" : "=r"(r) : "x"(d));
  }
  return r;
}

// ---- values ------------------------------------------------------------------------------
std::vector<uint64_t> f64_edges() {
  std::vector<uint64_t> v = {
      0, kF64SignBit, 0x3FF0000000000000ull, 0xBFF0000000000000ull, 0x4000000000000000ull,
      0x3FE0000000000000ull, 0xBFE0000000000000ull, 0x3FF8000000000000ull, 0xC004000000000000ull,
      0x0000000000000001ull, 0x8000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x0010000000000000ull,
      0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
      0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull, 0xFFF4000000000123ull,
      0x7FF8000000000ABCull, 0x3FB999999999999Aull, 0x43E0000000000000ull, 0xC3E0000000000000ull,
      0x43F0000000000000ull, 0x41E0000000000000ull, 0xC1E0000000000000ull, 0x41F0000000000000ull,
      0x43DFFFFFFFFFFFFFull, 0x3690000000000001ull, 0x47EFFFFFE0000000ull, 0x47EFFFFFF0000000ull,
      0x380FFFFFFFFFFFFFull, 0x36A0000000000000ull, 0x40DFFFC000000000ull, 0x406FE00000000000ull,
      0xC060000000000000ull, 0xC0E0000000000000ull, 0xC1E0000000200000ull, 0xC3E0000000000001ull,
  };
  return v;
}
std::vector<uint64_t> f32_edges() {
  return {0,          kF32SignBit, 0x3F800000, 0xBF800000, 0x40000000, 0x3F000000, 0xBF000000, 0x3FC00000,
          0x00000001, 0x80000001,  0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
          0x7FC00000, 0xFFC00000,  0x7F800001, 0xFFA00123, 0x7FC00ABC, 0x3DCCCCCD, 0x5F000000, 0xDF000000,
          0x5F800000, 0x4F000000,  0xCF000000, 0x4F800000, 0x46FFFE00, 0x437F0000, 0xC3000000, 0xC7000000};
}

void check_binary(uint64_t a, uint64_t b) {
  expect("addsd", a, b, hw_addsd(a, b), eval_fadd(a, b, false));
  expect("subsd", a, b, hw_subsd(a, b), eval_fsub(a, b, false));
  expect("mulsd", a, b, hw_mulsd(a, b), eval_fmul(a, b, false));
  expect("divsd", a, b, hw_divsd(a, b), eval_fdiv(a, b, false));
  expect("ucomisd", a, b, static_cast<uint64_t>(hw_order(a, b, false)), static_cast<uint64_t>(float_order(a, b, false)));
  for (FloatPred p : {FloatPred::OEq, FloatPred::OGt, FloatPred::OGe, FloatPred::OLt, FloatPred::OLe, FloatPred::ONe,
                      FloatPred::Ord, FloatPred::UEq, FloatPred::UGt, FloatPred::UGe, FloatPred::ULt, FloatPred::ULe,
                      FloatPred::UNe, FloatPred::Uno}) {
    // The predicate from the CPU's outcome, and its meaning in C terms for
    // the ordered ones (NaN compares false; C's != is une).
    bool hw = (static_cast<unsigned>(p) & static_cast<unsigned>(hw_order(a, b, false))) != 0;
    expect("fcmp-sd", a, b, hw, eval_fcmp(p, a, b, false));
  }
  double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
  expect("c<", a, b, x < y, eval_fcmp(FloatPred::OLt, a, b, false));
  expect("c==", a, b, x == y, eval_fcmp(FloatPred::OEq, a, b, false));
  expect("c!=", a, b, x != y, eval_fcmp(FloatPred::UNe, a, b, false));
  expect("c>=", a, b, x >= y, eval_fcmp(FloatPred::OGe, a, b, false));
}

void check_binary32(uint64_t a, uint64_t b) {
  expect("addss", a, b, hw_addss(a, b), eval_fadd(a, b, true));
  expect("subss", a, b, hw_subss(a, b), eval_fsub(a, b, true));
  expect("mulss", a, b, hw_mulss(a, b), eval_fmul(a, b, true));
  expect("divss", a, b, hw_divss(a, b), eval_fdiv(a, b, true));
  expect("ucomiss", a, b, static_cast<uint64_t>(hw_order(a, b, true)), static_cast<uint64_t>(float_order(a, b, true)));
  float x = std::bit_cast<float>(static_cast<uint32_t>(a)), y = std::bit_cast<float>(static_cast<uint32_t>(b));
  expect("c<f", a, b, x < y, eval_fcmp(FloatPred::OLt, a, b, true));
  expect("c!=f", a, b, x != y, eval_fcmp(FloatPred::UNe, a, b, true));
}

void check_unary(uint64_t a) {
  expect("sqrtsd", a, 0, hw_sqrtsd(a), eval_fsqrt(a, false));
  expect("xorpd", a, 0, hw_negsd(a), eval_fneg(a, false));
  expect("andpd", a, 0, hw_abssd(a), eval_fabs(a, false));
  expect("cvtsd2ss", a, 0, hw_cvtsd2ss(a), eval_fptrunc(a));
  // fptosi/fptoui: where the model gives a value, cvttsd2si's (64-bit, the
  // narrow results truncated) must be it; where it refuses, the value is out
  // of range of the type (checked independently on the double).
  double d = std::bit_cast<double>(a);
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    for (bool is_signed : {true, false}) {
      std::optional<uint64_t> m = eval_fptoi(a, false, bits, is_signed);
      double t = std::trunc(d);
      double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
      double hi = is_signed ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);
      bool fits = std::isfinite(d) && t >= lo && t < hi;
      expect(is_signed ? "fptosi-range" : "fptoui-range", a, bits, m.has_value(), fits);
      if (!m) continue;
      uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
      uint64_t hw;
      if (!is_signed && bits == 64 && t >= std::ldexp(1.0, 63)) {
        // gcc's sequence: subtract 2^63, convert, set bit 63.
        hw = static_cast<uint64_t>(hw_cvtt(bits_of(d - std::ldexp(1.0, 63)), false)) ^ kF64SignBit;
      } else {
        hw = static_cast<uint64_t>(hw_cvtt(a, false)) & mask;
      }
      expect(is_signed ? "cvttsd2si" : "cvttsd2si-u", a, bits, hw, *m);
    }
  }
}

void check_unary32(uint64_t a) {
  expect("sqrtss", a, 0, hw_sqrtss(a), eval_fsqrt(a, true));
  // An f32 in an x64 register has junk above bit 31 (pipe-run at the x64
  // levels): the low 32 bits of the result are the same (sqrt of -0.0 with
  // junk above was the default NaN; found by pipe-fuzz's float programs).
  for (uint64_t junk : {0xFFFFFFFF00000000ull, 0x0000000100000000ull, 0x8000000000000000ull}) {
    expect("sqrtss-junk", a | junk, 0, hw_sqrtss(a), eval_fsqrt(a | junk, true) & 0xFFFFFFFFu);
    expect("xorps-junk", a | junk, 0, hw_negss(a), eval_fneg(a | junk, true) & 0xFFFFFFFFu);
    expect("andps-junk", a | junk, 0, hw_absss(a), eval_fabs(a | junk, true) & 0xFFFFFFFFu);
    expect("cvtss2sd-junk", a | junk, 0, hw_cvtss2sd(a), eval_fpext(a | junk));
    expect("ucomiss-junk", a | junk, 0, eval_fcmp(FloatPred::UNe, a, a, true), eval_fcmp(FloatPred::UNe, a | junk, a, true));
  }
  expect("xorps", a, 0, hw_negss(a), eval_fneg(a, true));
  expect("andps", a, 0, hw_absss(a), eval_fabs(a, true));
  expect("cvtss2sd", a, 0, hw_cvtss2sd(a), eval_fpext(a));
  for (bool is_signed : {true, false}) {
    std::optional<uint64_t> m = eval_fptoi(a, true, 32, is_signed);
    if (m && is_signed) expect("cvttss2si", a, 32, static_cast<uint64_t>(hw_cvtt(a, true)) & 0xFFFFFFFFu, *m);
    if (m && !is_signed) expect("cvttss2si-u", a, 32, static_cast<uint64_t>(hw_cvtt(a, true)) & 0xFFFFFFFFu, *m);
  }
  // The literal mapping is a bijection on f32 patterns.
  expect("f32-literal", a, 0, f32_bits_of_f64_bits(f64_bits_of_f32_bits(static_cast<uint32_t>(a))), a);
}

void check_int(uint64_t v) {
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t pattern = v & mask;
    int64_t s = static_cast<int64_t>(pattern << (64 - bits)) >> (64 - bits);
    for (bool f32 : {false, true}) {
      expect(f32 ? "cvtsi2ss" : "cvtsi2sd", pattern, bits, hw_sitofp(s, bits == 64, f32),
             eval_itofp(pattern, bits, true, f32));
      uint64_t hw_u = bits == 64 ? hw_uitofp64(pattern, f32) : hw_sitofp(static_cast<int64_t>(pattern), true, f32);
      expect(f32 ? "uitofp-ss" : "uitofp-sd", pattern, bits, hw_u, eval_itofp(pattern, bits, false, f32));
    }
  }
}

}  // namespace

int main() {
  std::mt19937_64 rng(20261127);
  std::vector<uint64_t> d = f64_edges(), f = f32_edges();
  for (uint64_t a : d) {
    check_unary(a);
    for (uint64_t b : d) check_binary(a, b);
  }
  for (uint64_t a : f) {
    check_unary32(a);
    for (uint64_t b : f) check_binary32(a, b);
  }
  for (int i = 0; i < 200000; ++i) {
    uint64_t a = rng(), b = rng();
    // Half the time, nearby exponents, so that sums round rather than absorb.
    if (i & 1) b = (b & 0x800FFFFFFFFFFFFFull) | (a & 0x7FF0000000000000ull);
    check_binary(a, b);
    check_unary(a);
    check_binary32(a & 0xFFFFFFFF, b & 0xFFFFFFFF);
    check_unary32(a & 0xFFFFFFFF);
    check_int(rng() >> (rng() % 64));
  }
  for (uint64_t v : {0ull, 1ull, ~0ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x8000000000000001ull,
                     0x20000000000001ull, 0x20000000000003ull, 0xFFFFFFFFFFFFF800ull, 0xFFFFFFFFFFFFFC00ull,
                     0x7FFFFFFFFFFFFDFFull, 0x80000000ull, 0xFFFFFFFFull, 0x1000001ull, 0x1000003ull})
    check_int(v);
  std::printf("eval_float: %ld checks, %d mismatches\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
