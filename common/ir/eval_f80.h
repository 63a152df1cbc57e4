// eval_f80.h - the meaning of the long double operations (FORMAT.md section
// 7, "long double (f80)"), exactly as the x87 unit computes them.
//
// Representation. An f80 is never an SSA value (it has 80 bits; every value
// of the IR has at most 64): it is the 10 bytes of an x87 double-extended
// number (64-bit significand with an explicit integer bit, 15-bit exponent,
// sign), little-endian, at the start of a 16-byte, 16-aligned object; the
// six bytes after it are padding, never read. The f80 opcodes name the
// addresses of their operands and their result, and these functions take
// and give the 10 bytes.
//
// Meaning. The arithmetic is the host's `long double`: this file is compiled
// for x86-64 Linux, where long double is the x87 format and the x87 control
// word's default is what every program we compile runs with (precision
// control 64 bits, round to nearest even, all exceptions masked), so a host
// `a + b` is the fadd of the machine code son-lower-x64 and codegen-x64
// make. The x87 rules therefore hold as the CPU has them: a NaN operand
// gives that NaN quieted (two NaNs: the one with the larger significand),
// an invalid operation the default NaN (negative, quiet, significand
// 0xC000000000000000); fld of an f32/f64 signalling NaN quiets it; fstp to
// f32/f64 rounds to nearest even and keeps the top of a NaN's payload.
// fneg and fabs touch only the sign bit (fchs, fabs). Conversions to an
// integer truncate toward zero (fistp with the rounding control set to
// truncate); a NaN, an infinity or a value whose truncation does not fit the
// type is undefined in C (6.3.1.4) and reported (nullopt), never computed.
// Comparisons (fucomip) follow eval_float.h's predicates: ordered ones are
// false for a NaN, unordered ones true; -0.0 equals +0.0.
//
// Header-only; pipe-run (stages/pipe-run/interp.cpp) is its user.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "ir/eval.h"

namespace pl {

static_assert(sizeof(long double) == 16 && __LDBL_MANT_DIG__ == 64, "eval_f80.h needs the x87 long double");

inline constexpr unsigned kF80Bytes = 10;
inline constexpr unsigned kF80ObjectBytes = 16;

inline long double f80_read(const uint8_t* p) {
  long double x = 0;
  std::memcpy(&x, p, kF80Bytes);
  return x;
}
inline void f80_write(uint8_t* p, long double x) { std::memcpy(p, &x, kF80Bytes); }

enum class F80Op : uint8_t { Add, Sub, Mul, Div, Neg, Abs, Sqrt, Copy };

inline std::optional<F80Op> parse_f80_op(std::string_view name) {
  static constexpr std::string_view kNames[] = {"add", "sub", "mul", "div", "neg", "abs", "sqrt", "copy"};
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (kNames[i] == name) return static_cast<F80Op>(i);
  return std::nullopt;
}

// [dst] = a OP b (b unused by the unary operations). Writes through `dst`
// after reading both operands, so they may overlap it.
inline void f80_compute(F80Op op, uint8_t* dst, const uint8_t* a, const uint8_t* b) {
  if (op == F80Op::Copy) {
    uint8_t tmp[kF80Bytes];
    std::memcpy(tmp, a, kF80Bytes);
    std::memcpy(dst, tmp, kF80Bytes);
    return;
  }
  if (op == F80Op::Neg || op == F80Op::Abs) {  // the sign bit only: fchs, fabs
    uint8_t tmp[kF80Bytes];
    std::memcpy(tmp, a, kF80Bytes);
    if (op == F80Op::Neg)
      tmp[9] ^= 0x80;
    else
      tmp[9] &= 0x7F;
    std::memcpy(dst, tmp, kF80Bytes);
    return;
  }
  long double x = f80_read(a), r = 0;
  switch (op) {
    case F80Op::Add: r = x + f80_read(b); break;
    case F80Op::Sub: r = x - f80_read(b); break;
    case F80Op::Mul: r = x * f80_read(b); break;
    case F80Op::Div: r = x / f80_read(b); break;
    case F80Op::Sqrt: r = __builtin_sqrtl(x); break;  // fsqrt (no errno path: inlined)
    default: break;
  }
  f80_write(dst, r);
}

// A floating compare's name ("foeq" ... "funo") applied to two f80s: 0 or 1;
// nullopt for another name.
inline std::optional<uint64_t> f80_compare(std::string_view pred, const uint8_t* pa, const uint8_t* pb) {
  long double a = f80_read(pa), b = f80_read(pb);
  bool uno = std::isunordered(a, b);
  bool r;
  if (pred == "foeq") r = !uno && a == b;
  else if (pred == "fone") r = !uno && a != b;
  else if (pred == "folt") r = !uno && a < b;
  else if (pred == "fole") r = !uno && a <= b;
  else if (pred == "fogt") r = !uno && a > b;
  else if (pred == "foge") r = !uno && a >= b;
  else if (pred == "ford") r = !uno;
  else if (pred == "fueq") r = uno || a == b;
  else if (pred == "fune") r = uno || a != b;
  else if (pred == "fult") r = uno || a < b;
  else if (pred == "fule") r = uno || a <= b;
  else if (pred == "fugt") r = uno || a > b;
  else if (pred == "fuge") r = uno || a >= b;
  else if (pred == "funo") r = uno;
  else return std::nullopt;
  return r ? 1 : 0;
}

// [dst] = the value `v` (eval.h's representation) of type t: i16, i32, i64
// (signed: fild) or f32, f64 (fld); false for another type.
inline bool f80_from(ValueType t, uint64_t v, uint8_t* dst) {
  long double r;
  switch (t) {
    case ValueType::I16: r = static_cast<int16_t>(v); break;
    case ValueType::I32: r = static_cast<int32_t>(v); break;
    case ValueType::I64: r = static_cast<int64_t>(v); break;
    case ValueType::F32: r = f32_of(v); break;
    case ValueType::F64: r = f64_of(v); break;
    default: return false;
  }
  f80_write(dst, r);
  return true;
}

// The f80 at `src` converted to type t (eval.h's representation): integers
// truncated toward zero, nullopt (FloatToIntOverflow in *err) when that is
// undefined; f32/f64 rounded to nearest even (fstp).
inline std::optional<uint64_t> f80_to(ValueType t, const uint8_t* src, EvalError* err) {
  long double x = f80_read(src);
  auto integer = [&](long double lo, long double hi) -> std::optional<uint64_t> {
    long double tr = std::trunc(x);
    if (std::isnan(x) || tr < lo || tr > hi) {
      if (err) *err = EvalError::FloatToIntOverflow;
      return std::nullopt;
    }
    return truncate_to(static_cast<uint64_t>(static_cast<int64_t>(tr)), type_bits(t));
  };
  switch (t) {
    case ValueType::I16: return integer(-32768.0L, 32767.0L);
    case ValueType::I32: return integer(-2147483648.0L, 2147483647.0L);
    case ValueType::I64: return integer(-9223372036854775808.0L, 9223372036854775807.0L);
    case ValueType::F32: return bits_of(static_cast<float>(x));
    case ValueType::F64: return bits_of(static_cast<double>(x));
    default:
      if (err) *err = EvalError::NotEvaluable;
      return std::nullopt;
  }
}

}  // namespace pl
