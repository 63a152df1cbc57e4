// eval_x64.h - the meaning of the pure x64: instructions (FORMAT.md section 8),
// written once: pipe-run executes them with these functions, and folders of
// the back end may compute with them. Where an x64 instruction means what a
// generic opcode means on the low bits (add, sub, imul, and, or, xor, neg,
// not, shl, movsx ...), the generic eval_ function of eval.h computes it and
// these functions only add the x86-64 register rules around it.
//
// The value model. A value is a 64-bit register. An instruction of operand
// size `bits` (8, 16, 32, 64) reads the low `bits` bits of each input, and
// writes its result:
//   - 32 bits: zero-extended to 64 (x64_write with any old value);
//   - 64 bits: whole;
//   - 8 or 16 bits of a two-address instruction: into the low bits of the
//     tied input, whose upper bits stay (x64_write(old = tied input, ...));
//   - 8 or 16 bits of any other instruction (setcc, movi, imuli, movsx to
//     i16, the results of mul1, cdq, div): the upper bits are unspecified;
//     x64_fresh() fills them with kX64Junk, a fixed pattern, so that code
//     relying on them computes visibly wrong values instead of the right
//     ones by luck.
//
// Flags are one value: the status bits at their RFLAGS positions (CF bit 0,
// PF bit 2, ZF bit 6, SF bit 7, OF bit 11), so a test can compare them with
// the real CPU's pushf. Only cmp/cmpi (a - b) and test/testi (a & b) produce
// them; instructions that merely clobber the flags do not define a result,
// except through x64:flagsof a, which means test a, a: the flags a's
// definer left, for the conditions FORMAT.md rule I lets its user read.
//
// Shifts mask their count to 5 bits (6 for 64-bit operands) as the hardware
// does; an 8- or 16-bit shift may then shift by more than its width (shl
// and shr give 0, sar the sign). One-operand multiply and division work on
// the double-width value hi:lo; division by zero and a quotient that does
// not fit the operand size are the #DE fault (x64_check_div).
#pragma once

#include <cstdint>

#include "ir/eval.h"
#include "ir/eval_float.h"
#include "x64/x64.h"

namespace pl {

// Double-width arithmetic of mul1 and div (a GCC/Clang extension on x86-64).
__extension__ typedef __int128 X64I128;
__extension__ typedef unsigned __int128 X64U128;

// What unspecified upper bits hold (pipe-run's junk pattern).
inline constexpr uint64_t kX64Junk = 0xBADC0FFEE0DDF00Dull;

// The bits of the destination an instruction of `bits` operand size keeps:
// none at 32 and 64 bits (a 32-bit write zero-extends).
constexpr uint64_t x64_keep_mask(unsigned bits) { return bits < 32 ? ~width_mask(bits) : 0; }
// The register after writing result `r` of `bits` operand size into a
// register that held `old` (the tied input of a two-address instruction).
constexpr uint64_t x64_write(uint64_t old, uint64_t r, unsigned bits) {
  return (old & x64_keep_mask(bits)) | truncate_to(r, bits);
}
// A result written to a register that was not an input: narrow results
// leave unspecified (junk) upper bits.
constexpr uint64_t x64_fresh(uint64_t r, unsigned bits) { return x64_write(kX64Junk, r, bits); }
// A value whose bits above `bits` the ABI leaves unspecified (an i32
// argument or result in a 64-bit register): junk above, 32 bits included.
constexpr uint64_t x64_junk_above(uint64_t v, unsigned bits) {
  return truncate_to(v, bits) | (kX64Junk & ~width_mask(bits));
}

// ---- flags ----------------------------------------------------------------------
inline constexpr uint64_t kFlagCF = 1u << 0;
inline constexpr uint64_t kFlagPF = 1u << 2;
inline constexpr uint64_t kFlagZF = 1u << 6;
inline constexpr uint64_t kFlagSF = 1u << 7;
inline constexpr uint64_t kFlagOF = 1u << 11;
inline constexpr uint64_t kFlagsStatus = kFlagCF | kFlagPF | kFlagZF | kFlagSF | kFlagOF;

// ZF, SF and PF of a result (PF: the low byte has an even number of ones).
constexpr uint64_t x64_result_flags(uint64_t r, unsigned bits) {
  r = truncate_to(r, bits);
  uint64_t f = 0;
  if (r == 0) f |= kFlagZF;
  if ((r >> (bits - 1)) & 1) f |= kFlagSF;
  if ((__builtin_popcountll(r & 0xFF) & 1) == 0) f |= kFlagPF;
  return f;
}
// cmp a, b: the flags of a - b.
constexpr uint64_t x64_flags_cmp(uint64_t a, uint64_t b, unsigned bits) {
  a = truncate_to(a, bits);
  b = truncate_to(b, bits);
  uint64_t r = eval_sub(a, b, bits);
  uint64_t f = x64_result_flags(r, bits);
  if (a < b) f |= kFlagCF;
  if ((((a ^ b) & (a ^ r)) >> (bits - 1)) & 1) f |= kFlagOF;
  return f;
}
// test a, b: the flags of a & b (CF and OF cleared).
constexpr uint64_t x64_flags_test(uint64_t a, uint64_t b, unsigned bits) {
  return x64_result_flags(eval_and(a, b, bits), bits);
}

// Does condition code `c` hold for `flags`?
constexpr bool x64_cond(x64::Cond c, uint64_t flags) {
  bool cf = flags & kFlagCF, zf = flags & kFlagZF, sf = flags & kFlagSF, of = flags & kFlagOF, pf = flags & kFlagPF;
  bool holds = false;
  switch (static_cast<x64::Cond>(static_cast<uint8_t>(c) & ~1u)) {  // the even (positive) code
    case x64::Cond::O: holds = of; break;
    case x64::Cond::B: holds = cf; break;
    case x64::Cond::E: holds = zf; break;
    case x64::Cond::BE: holds = cf || zf; break;
    case x64::Cond::S: holds = sf; break;
    case x64::Cond::P: holds = pf; break;
    case x64::Cond::L: holds = sf != of; break;
    default: holds = zf || sf != of; break;  // LE
  }
  return (static_cast<uint8_t>(c) & 1) ? !holds : holds;  // odd codes negate: no ae ne a ns np ge g
}

// setcc: 0 or 1 in the low byte, the upper 56 bits unspecified.
constexpr uint64_t x64_setcc(x64::Cond c, uint64_t flags) { return x64_fresh(x64_cond(c, flags) ? 1 : 0, 8); }
// cmov: cc ? b : a, written into a's register (a 32-bit cmov zero-extends
// even when it does not move).
constexpr uint64_t x64_cmov(x64::Cond c, uint64_t flags, uint64_t a, uint64_t b, unsigned bits) {
  return x64_write(a, x64_cond(c, flags) ? b : a, bits);
}

// ---- shifts ---------------------------------------------------------------------
constexpr uint64_t x64_shift_count(uint64_t count, unsigned bits) { return count & (bits == 64 ? 63 : 31); }
// The shifted low `bits` bits (write them with x64_write).
constexpr uint64_t x64_shl(uint64_t a, uint64_t count, unsigned bits) {
  return eval_shl(a, x64_shift_count(count, bits), bits);
}
constexpr uint64_t x64_shr(uint64_t a, uint64_t count, unsigned bits) {
  return eval_lshr(truncate_to(a, bits), x64_shift_count(count, bits), bits);
}
constexpr uint64_t x64_sar(uint64_t a, uint64_t count, unsigned bits) {
  return eval_ashr(a, x64_shift_count(count, bits), bits);
}

// ---- one-operand multiply, sign extension into rdx, division ---------------------
struct X64Pair {
  uint64_t first, second;  // lo and hi of a product; quotient and remainder
};

// mul1 / imul1: the full 2*bits product of the low bits of a and b.
constexpr X64Pair x64_mul1(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  X64U128 p;
  if (is_signed)
    p = static_cast<X64U128>(static_cast<X64I128>(sign_extend(a, bits)) * sign_extend(b, bits));
  else
    p = static_cast<X64U128>(truncate_to(a, bits)) * truncate_to(b, bits);
  return {truncate_to(static_cast<uint64_t>(p), bits), truncate_to(static_cast<uint64_t>(p >> bits), bits)};
}

// cdq (cwd, cqo): all ones if a is negative at `bits`, else 0.
constexpr uint64_t x64_cdq(uint64_t a, unsigned bits) {
  return sign_extend(a, bits) < 0 ? width_mask(bits) : 0;
}

namespace detail {
// hi:lo at `bits` each as one unsigned or signed 2*bits-wide number.
constexpr X64U128 x64_dividend(uint64_t lo, uint64_t hi, unsigned bits) {
  return (static_cast<X64U128>(truncate_to(hi, bits)) << bits) | truncate_to(lo, bits);
}
constexpr X64I128 x64_signed_dividend(uint64_t lo, uint64_t hi, unsigned bits) {
  X64U128 u = x64_dividend(lo, hi, bits);
  unsigned shift = 128 - 2 * bits;
  return static_cast<X64I128>(u << shift) >> shift;
}
}  // namespace detail

// div / idiv of hi:lo by d: None, DivisionByZero, or QuotientOverflow (the
// quotient does not fit `bits`): both are #DE on the hardware.
constexpr EvalError x64_check_div(uint64_t lo, uint64_t hi, uint64_t d, unsigned bits, bool is_signed) {
  d = truncate_to(d, bits);
  if (d == 0) return EvalError::DivisionByZero;
  if (!is_signed) {
    // The quotient fits iff hi < d.
    return truncate_to(hi, bits) < d ? EvalError::None : EvalError::QuotientOverflow;
  }
  X64I128 n = detail::x64_signed_dividend(lo, hi, bits);
  X64I128 sd = sign_extend(d, bits);
  X64I128 max = (static_cast<X64I128>(1) << (bits - 1)) - 1, min = -max - 1;
  if (sd == -1) return n >= -max && n <= -min ? EvalError::None : EvalError::QuotientOverflow;
  X64I128 q = n / sd;
  return q >= min && q <= max ? EvalError::None : EvalError::QuotientOverflow;
}
// Quotient and remainder (truncating toward zero; the remainder has the
// dividend's sign); x64_check_div() must have passed.
constexpr X64Pair x64_div(uint64_t lo, uint64_t hi, uint64_t d, unsigned bits, bool is_signed) {
  if (!is_signed) {
    X64U128 n = detail::x64_dividend(lo, hi, bits);
    X64U128 ud = truncate_to(d, bits);
    return {truncate_to(static_cast<uint64_t>(n / ud), bits), truncate_to(static_cast<uint64_t>(n % ud), bits)};
  }
  X64I128 n = detail::x64_signed_dividend(lo, hi, bits);
  X64I128 sd = sign_extend(d, bits);
  if (sd == -1) return {truncate_to(static_cast<uint64_t>(-n), bits), 0};
  return {truncate_to(static_cast<uint64_t>(n / sd), bits), truncate_to(static_cast<uint64_t>(n % sd), bits)};
}

// ---- SSE2 scalar floating point ----------------------------------------------------
// An xmm value is modelled by its low 64 bits: an f64's pattern, or an f32's
// pattern zero-extended (eval_float.h's representation). The arithmetic
// (x64:fadd ... fsqrt, cvtsi2f, cvtf2f) is eval_float.h's, which is what
// addsd & co. compute; the rules below are those the hardware adds.

// ucomisd / ucomiss a, b: unordered ZF PF CF, a < b CF, a == b ZF (-0.0
// equals 0.0), a > b none; OF, SF (and AF) cleared.
inline uint64_t x64_flags_ucomis(uint64_t a, uint64_t b, bool is_f32) {
  if (float_is_nan(a, is_f32) || float_is_nan(b, is_f32)) return kFlagZF | kFlagPF | kFlagCF;
  bool less = is_f32 ? f32_of(a) < f32_of(b) : f64_of(a) < f64_of(b);
  bool equal = is_f32 ? f32_of(a) == f32_of(b) : f64_of(a) == f64_of(b);
  return less ? kFlagCF : equal ? kFlagZF : 0;
}

// cvttsd2si / cvttss2si to `bits` (32 or 64): truncation toward zero; a NaN,
// an infinity or a value whose truncation does not fit gives the integer
// indefinite 1 << (bits - 1). A 32-bit result zero-extends (x64_write).
inline uint64_t x64_cvttf2si(uint64_t a, bool is_f32, unsigned bits) {
  std::optional<uint64_t> v = eval_fptoi(a, is_f32, bits, true);
  return truncate_to(v ? *v : uint64_t{1} << (bits - 1), bits);
}

// ---- conversions and addresses ----------------------------------------------------
// movsx / movzx (and the extension of loadsx / loadzx): the low `from` bits
// extended to `to` bits (write with x64_fresh: a 16-bit result has junk above).
constexpr uint64_t x64_movsx(uint64_t a, unsigned from, unsigned to) { return eval_sext(a, from, to); }
constexpr uint64_t x64_movzx(uint64_t a, unsigned from, unsigned to) {
  return eval_zext(truncate_to(a, from), from, to);
}

// base + index * scale + disp, wrapping (scale 0: no index).
constexpr uint64_t x64_address(uint64_t base, uint64_t index, unsigned scale, int64_t disp) {
  return base + index * scale + static_cast<uint64_t>(disp);
}

}  // namespace pl
