// eval_float.h - the meaning of the floating-point opcodes (FORMAT.md section
// 7, "Floating point"), exactly as x86-64 SSE2 scalar code computes them.
//
// Value representation (as for integers in eval.h): an f32 is its 32-bit
// IEEE 754 binary32 pattern zero-extended to 64 bits, an f64 its 64-bit
// binary64 pattern. Every function takes and returns patterns, never host
// floats, so that NaN payloads and the sign of zero survive exactly.
//
// Rounding is to nearest, ties to even (MXCSR's default, which every
// program we compile runs with); no flush to zero, no denormals-are-zero.
// The arithmetic itself is the host's (this file is compiled for x86-64,
// where a double `+` is addsd and FLT_EVAL_METHOD is 0), but every NaN rule
// is written out here rather than left to the host compiler's operand order:
//   - fadd fsub fmul fdiv with a NaN operand give the first NaN operand
//     (input 0 if it is a NaN, else input 1), quieted (the quiet bit, the
//     top mantissa bit, set): what addsd/subsd/mulsd/divsd do with a NaN in
//     their first (destination) or second source. An invalid operation on
//     numbers (inf - inf, 0 * inf, 0 / 0, inf / inf) gives the default NaN,
//     the negative quiet NaN 0xFFF8000000000000 (f32: 0xFFC00000);
//   - fsqrt of a NaN gives it quieted; of a number below zero (not -0.0,
//     whose root is -0.0) the default NaN;
//   - fneg flips the sign bit and fabs clears it (xorps/andps with a mask):
//     no NaN is quieted;
//   - fpext (cvtss2sd) and fptrunc (cvtsd2ss) quiet a NaN and keep the top
//     of its payload (the mantissa is shifted by 29 bits); fptrunc rounds
//     to nearest even, overflowing to infinity;
//   - sitofp/uitofp (cvtsi2sd/ss; the unsigned 64-bit sequence of gcc)
//     round the integer to nearest even;
//   - fptosi/fptoui truncate toward zero (cvttsd2si); a NaN, an infinity or
//     a value whose truncation does not fit the target type is undefined in
//     C (6.3.1.4) and an error here (FloatToIntOverflow), never a folded
//     value; SSE2 would give the "integer indefinite" 0x80...0;
//   - comparisons (ucomisd/ucomiss): ordered predicates (foeq folt fole fogt
//     foge fone ford) are false when either operand is a NaN, unordered
//     ones (fueq fult fule fugt fuge fune funo) true; -0.0 equals 0.0. The
//     result is an i32 0 or 1 like the integer comparisons;
//   - bitcast reinterprets the pattern (f32 <-> i32, f64 <-> i64).
// The f32 forms compute in binary32 (addss ...): the host float arithmetic
// rounds once, exactly as the single-precision instruction does.
//
// Header-only and dependency-free: tests/eval_x64_cpu.cpp includes it to
// check every function against the real CPU's instructions.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace pl {

// ---- patterns -------------------------------------------------------------------------
inline constexpr uint64_t kF64SignBit = 0x8000000000000000ull;
inline constexpr uint64_t kF64QuietBit = 0x0008000000000000ull;
inline constexpr uint64_t kF64DefaultNaN = 0xFFF8000000000000ull;
inline constexpr uint32_t kF32SignBit = 0x80000000u;
inline constexpr uint32_t kF32QuietBit = 0x00400000u;
inline constexpr uint32_t kF32DefaultNaN = 0xFFC00000u;

inline double f64_of(uint64_t bits) { return std::bit_cast<double>(bits); }
inline float f32_of(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
inline uint64_t bits_of(double d) { return std::bit_cast<uint64_t>(d); }
inline uint64_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

constexpr bool f64_is_nan(uint64_t b) { return (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (b & 0x000FFFFFFFFFFFFFull) != 0; }
constexpr bool f32_is_nan(uint64_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) != 0; }
constexpr bool float_is_nan(uint64_t b, bool is_f32) { return is_f32 ? f32_is_nan(b) : f64_is_nan(b); }
constexpr uint64_t float_quiet(uint64_t b, bool is_f32) { return b | (is_f32 ? kF32QuietBit : kF64QuietBit); }
constexpr uint64_t float_sign_bit(bool is_f32) { return is_f32 ? kF32SignBit : kF64SignBit; }
constexpr uint64_t float_default_nan(bool is_f32) { return is_f32 ? kF32DefaultNaN : kF64DefaultNaN; }

// The f32 pattern of a double that is exactly an f32 value (or a NaN whose
// payload's low 29 bits are zero): how an f32 constant's literal, which the
// format stores as a double, becomes its pattern. The mapping is by bits,
// not by cvtsd2ss, so a signalling NaN stays signalling.
constexpr uint32_t f32_bits_of_f64_bits(uint64_t d) {
  uint32_t sign = static_cast<uint32_t>(d >> 32) & kF32SignBit;
  if (f64_is_nan(d) || (d & 0x7FF0000000000000ull) == 0x7FF0000000000000ull)
    return sign | 0x7F800000u | static_cast<uint32_t>((d & 0x000FFFFFFFFFFFFFull) >> 29);
  return std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(d)));
}
// The inverse: the double literal of an f32 pattern.
constexpr uint64_t f64_bits_of_f32_bits(uint32_t f) {
  uint64_t sign = static_cast<uint64_t>(f & kF32SignBit) << 32;
  if ((f & 0x7F800000u) == 0x7F800000u)
    return sign | 0x7FF0000000000000ull | (static_cast<uint64_t>(f & 0x007FFFFFu) << 29);
  return std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(f)));
}
// Whether the double pattern `d` is the literal of some f32 constant.
constexpr bool f64_bits_fit_f32(uint64_t d) { return f64_bits_of_f32_bits(f32_bits_of_f64_bits(d)) == d; }

// ---- arithmetic -------------------------------------------------------------------------
enum class FloatBinOp : uint8_t { Add, Sub, Mul, Div };

// The NaN an SSE binary operation returns when an operand is a NaN.
constexpr std::optional<uint64_t> float_nan_operand(uint64_t a, uint64_t b, bool is_f32) {
  if (float_is_nan(a, is_f32)) return float_quiet(a, is_f32);
  if (float_is_nan(b, is_f32)) return float_quiet(b, is_f32);
  return std::nullopt;
}

template <class T>
T float_binop_host(FloatBinOp op, T a, T b) {
  // volatile: the host compiler must not contract, reorder or fold.
  volatile T x = a, y = b;
  switch (op) {
    case FloatBinOp::Add: return x + y;
    case FloatBinOp::Sub: return x - y;
    case FloatBinOp::Mul: return x * y;
    case FloatBinOp::Div: return x / y;
  }
  return x;
}

inline uint64_t eval_fbinop(FloatBinOp op, uint64_t a, uint64_t b, bool is_f32) {
  if (auto nan = float_nan_operand(a, b, is_f32)) return *nan;
  if (is_f32) return bits_of(float_binop_host(op, f32_of(a), f32_of(b)));
  return bits_of(float_binop_host(op, f64_of(a), f64_of(b)));
}
inline uint64_t eval_fadd(uint64_t a, uint64_t b, bool is_f32) { return eval_fbinop(FloatBinOp::Add, a, b, is_f32); }
inline uint64_t eval_fsub(uint64_t a, uint64_t b, bool is_f32) { return eval_fbinop(FloatBinOp::Sub, a, b, is_f32); }
inline uint64_t eval_fmul(uint64_t a, uint64_t b, bool is_f32) { return eval_fbinop(FloatBinOp::Mul, a, b, is_f32); }
inline uint64_t eval_fdiv(uint64_t a, uint64_t b, bool is_f32) { return eval_fbinop(FloatBinOp::Div, a, b, is_f32); }

constexpr uint64_t eval_fneg(uint64_t a, bool is_f32) { return a ^ float_sign_bit(is_f32); }
constexpr uint64_t eval_fabs(uint64_t a, bool is_f32) { return a & ~float_sign_bit(is_f32); }

inline uint64_t eval_fsqrt(uint64_t a, bool is_f32) {
  if (float_is_nan(a, is_f32)) return float_quiet(a, is_f32);
  // Negative and not -0.0: the magnitude bits of the type only (an f32 in
  // an x64 register has junk above bit 31).
  uint64_t magnitude = a & (is_f32 ? uint64_t{0x7fffffff} : ~float_sign_bit(false));
  bool negative = (a & float_sign_bit(is_f32)) != 0 && magnitude != 0;
  if (negative) return float_default_nan(is_f32);
  if (is_f32) {
    volatile float x = f32_of(a);
    return bits_of(__builtin_sqrtf(x));
  }
  volatile double x = f64_of(a);
  return bits_of(__builtin_sqrt(x));
}

// ---- comparisons -------------------------------------------------------------------------
// The four outcomes of ucomisd: less, equal, greater, unordered; each
// predicate is the set of outcomes for which it is true.
enum class FloatOrder : uint8_t { Less = 1, Equal = 2, Greater = 4, Unordered = 8 };
enum class FloatPred : uint8_t {
  OEq = 2, OGt = 4, OGe = 6, OLt = 1, OLe = 3, ONe = 5, Ord = 7,
  UEq = 10, UGt = 12, UGe = 14, ULt = 9, ULe = 11, UNe = 13, Uno = 8,
};

inline FloatOrder float_order(uint64_t a, uint64_t b, bool is_f32) {
  if (float_is_nan(a, is_f32) || float_is_nan(b, is_f32)) return FloatOrder::Unordered;
  if (is_f32) {
    float x = f32_of(a), y = f32_of(b);
    return x < y ? FloatOrder::Less : x == y ? FloatOrder::Equal : FloatOrder::Greater;
  }
  double x = f64_of(a), y = f64_of(b);
  return x < y ? FloatOrder::Less : x == y ? FloatOrder::Equal : FloatOrder::Greater;
}
inline uint64_t eval_fcmp(FloatPred p, uint64_t a, uint64_t b, bool is_f32) {
  return (static_cast<unsigned>(p) & static_cast<unsigned>(float_order(a, b, is_f32))) != 0;
}

// ---- conversions -------------------------------------------------------------------------
inline uint64_t eval_fpext(uint64_t a) {  // f32 -> f64
  if (f32_is_nan(a)) return f64_bits_of_f32_bits(static_cast<uint32_t>(float_quiet(a, true)));
  return bits_of(static_cast<double>(f32_of(a)));
}
inline uint64_t eval_fptrunc(uint64_t a) {  // f64 -> f32
  if (f64_is_nan(a)) return f32_bits_of_f64_bits(float_quiet(a, false));
  volatile double x = f64_of(a);
  return bits_of(static_cast<float>(x));
}

// Integer -> float: `v` is the integer's pattern of `from_bits` bits
// (eval.h's representation), read signed or unsigned.
inline uint64_t eval_itofp(uint64_t v, unsigned from_bits, bool is_signed, bool to_f32) {
  unsigned s = 64 - from_bits;
  if (is_signed) {
    volatile int64_t x = static_cast<int64_t>(v << s) >> s;
    return to_f32 ? bits_of(static_cast<float>(x)) : bits_of(static_cast<double>(x));
  }
  volatile uint64_t x = from_bits >= 64 ? v : v & ((uint64_t{1} << from_bits) - 1);
  return to_f32 ? bits_of(static_cast<float>(x)) : bits_of(static_cast<double>(x));
}

// Float -> integer, truncating: the pattern of `to_bits` bits, or nullopt
// when the truncated value does not fit (or is NaN or infinite).
inline std::optional<uint64_t> eval_fptoi(uint64_t v, bool from_f32, unsigned to_bits, bool is_signed) {
  double d = from_f32 ? static_cast<double>(f32_of(v)) : f64_of(v);  // exact
  if (std::isnan(d) || std::isinf(d)) return std::nullopt;
  double t = std::trunc(d);
  const uint64_t mask = to_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << to_bits) - 1;
  if (is_signed) {
    // The range [-2^(n-1), 2^(n-1)): both ends are exact doubles.
    double lo = -std::ldexp(1.0, static_cast<int>(to_bits) - 1), hi = std::ldexp(1.0, static_cast<int>(to_bits) - 1);
    if (!(t >= lo && t < hi)) return std::nullopt;
    return static_cast<uint64_t>(static_cast<int64_t>(t)) & mask;
  }
  double hi = std::ldexp(1.0, static_cast<int>(to_bits));
  if (!(t >= 0.0 && t < hi)) return std::nullopt;  // -0.5 truncates to -0.0: fits
  return static_cast<uint64_t>(t) & mask;
}

}  // namespace pl
