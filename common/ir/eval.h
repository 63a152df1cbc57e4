// eval.h - the meaning of every pure and dividing opcode, written once.
//
// The interpreter (pipe-run) and the constant folders of later stages both
// compute with these functions, so they cannot drift apart. The per-opcode
// functions are constexpr and inline so that the interpreter's inner loop
// compiles each one down to a couple of machine instructions; eval_pure() is
// the generic entry point that decodes a node's literals from the opcode
// table (opcodes.def) and dispatches.
//
// Value representation. A value of type iN is its N-bit two's-complement
// pattern, zero-extended to 64 bits: i1 is 0 or 1, i8 is 0..255, an i32 -1 is
// 0xFFFFFFFF. `ptr` is 64 bits (pipe-run encodes an allocation and an offset
// in them; to these functions it is a 64-bit integer). Every function below
// takes operands in this form and returns its result in this form.
//
// Semantics (FORMAT.md section 7), where C leaves things undefined:
//   add sub mul neg         wrap around modulo 2^N;
//   and or xor not          bitwise; `not` is the N-bit complement;
//   shl lshr ashr           the amount is the second operand read as an
//                           unsigned N-bit number; an amount >= N is an error
//                           (ShiftOutOfRange: undefined in C);
//   sdiv srem               truncate toward zero; a zero divisor is an error
//                           (DivisionByZero), and so is INT_MIN / -1 and
//                           INT_MIN % -1 of the type (DivisionOverflow: the
//                           quotient does not fit; x86 traps on both);
//   udiv urem               unsigned; a zero divisor is an error;
//   eq ne slt sle ult ule   compare two N-bit values (signed ones sign-
//                           extended); the result is an i32 0 or 1;
//   sext zext               widen from the first type to the second (equal
//                           widths: identity; a narrower target is an error,
//                           BadConversion);
//   trunc                   keep the low bits of the target width (equal
//                           widths: identity; a wider target is an error).
//   const                   its integer literal, truncated to the type;
//   select                  its second operand when the first (an integer
//                           of any width) is not 0, else its third.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ir/eval_float.h"
#include "ir/literal.h"
#include "ir/opcodes.h"

namespace pl {

// F32 and F64 are the floating types (eval_float.h); the rest are integers.
// V128: a 16-byte vector value (FORMAT.md section 7, "16-byte vector
// values"); no type literal names it (ir.h is_value_type excludes it), only
// the v128 opcodes make it, so code that reads a `t` literal never sees it.
enum class ValueType : uint8_t { I1, I8, I16, I32, I64, Ptr, F32, F64, V128 };
constexpr bool is_float(ValueType t) { return t == ValueType::F32 || t == ValueType::F64; }

std::optional<ValueType> parse_value_type(std::string_view name);
std::string_view value_type_name(ValueType t);
// A `t` literal (a value type name), or nullopt if it is not one.
std::optional<ValueType> literal_value_type(const Literal& lit);

constexpr unsigned type_bits(ValueType t) {
  switch (t) {
    case ValueType::I1: return 1;
    case ValueType::I8: return 8;
    case ValueType::I16: return 16;
    case ValueType::I32:
    case ValueType::F32: return 32;
    case ValueType::I64:
    case ValueType::Ptr:
    case ValueType::F64: return 64;
    case ValueType::V128: return 128;
  }
  return 64;
}
// Bytes a value of the type occupies in memory (an i1 takes one byte).
constexpr unsigned type_bytes(ValueType t) { return t == ValueType::I1 ? 1 : type_bits(t) / 8; }

// All-ones in the low `bits` bits (1 <= bits <= 64).
constexpr uint64_t width_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
constexpr uint64_t truncate_to(uint64_t v, unsigned bits) { return v & width_mask(bits); }
// The low `bits` bits of v read as a signed number (1 <= bits <= 64).
constexpr int64_t sign_extend(uint64_t v, unsigned bits) {
  unsigned s = 64 - bits;
  return static_cast<int64_t>(v << s) >> s;
}
// The smallest signed value of the width, in the value representation.
constexpr uint64_t signed_min(unsigned bits) { return uint64_t{1} << (bits - 1); }

enum class EvalError : uint8_t {
  None,
  DivisionByZero,    // sdiv udiv srem urem with a zero divisor
  DivisionOverflow,  // sdiv srem of INT_MIN by -1
  ShiftOutOfRange,   // shift amount >= width
  BadConversion,     // sext/zext to a narrower type, trunc to a wider one,
                     // fpext/fptrunc the wrong way, a bitcast between
                     // types of different widths
  FloatToIntOverflow,  // fptosi/fptoui: the truncated value does not fit
                       // the integer type, or is NaN or infinite
  QuotientOverflow,  // x64:div/idiv: the quotient does not fit (#DE; eval_x64.h)
  NotEvaluable,      // not a pure or dividing opcode, or malformed operands
};
std::string_view eval_error_message(EvalError e);

// ---- the per-opcode meanings ------------------------------------------------
constexpr uint64_t eval_add(uint64_t a, uint64_t b, unsigned bits) { return truncate_to(a + b, bits); }
constexpr uint64_t eval_sub(uint64_t a, uint64_t b, unsigned bits) { return truncate_to(a - b, bits); }
constexpr uint64_t eval_mul(uint64_t a, uint64_t b, unsigned bits) { return truncate_to(a * b, bits); }
constexpr uint64_t eval_and(uint64_t a, uint64_t b, unsigned) { return a & b; }
constexpr uint64_t eval_or(uint64_t a, uint64_t b, unsigned) { return a | b; }
constexpr uint64_t eval_xor(uint64_t a, uint64_t b, unsigned) { return a ^ b; }
constexpr uint64_t eval_neg(uint64_t a, unsigned bits) { return truncate_to(uint64_t{0} - a, bits); }
constexpr uint64_t eval_not(uint64_t a, unsigned bits) { return truncate_to(~a, bits); }

constexpr bool shift_in_range(uint64_t amount, unsigned bits) { return amount < bits; }
// Shifts assume shift_in_range(b, bits); callers check it first.
constexpr uint64_t eval_shl(uint64_t a, uint64_t b, unsigned bits) { return truncate_to(a << b, bits); }
constexpr uint64_t eval_lshr(uint64_t a, uint64_t b, unsigned) { return a >> b; }
constexpr uint64_t eval_ashr(uint64_t a, uint64_t b, unsigned bits) {
  return truncate_to(static_cast<uint64_t>(sign_extend(a, bits) >> b), bits);
}

// Division: check_division() first; the eval_ functions assume it passed.
constexpr EvalError check_division(Op op, uint64_t a, uint64_t b, unsigned bits) {
  if (b == 0) return EvalError::DivisionByZero;
  if ((op == Op::SDiv || op == Op::SRem) && a == signed_min(bits) && b == width_mask(bits))
    return EvalError::DivisionOverflow;
  return EvalError::None;
}
constexpr uint64_t eval_sdiv(uint64_t a, uint64_t b, unsigned bits) {
  return truncate_to(static_cast<uint64_t>(sign_extend(a, bits) / sign_extend(b, bits)), bits);
}
constexpr uint64_t eval_srem(uint64_t a, uint64_t b, unsigned bits) {
  return truncate_to(static_cast<uint64_t>(sign_extend(a, bits) % sign_extend(b, bits)), bits);
}
constexpr uint64_t eval_udiv(uint64_t a, uint64_t b, unsigned) { return a / b; }
constexpr uint64_t eval_urem(uint64_t a, uint64_t b, unsigned) { return a % b; }

// Comparisons yield an i32 0 or 1.
constexpr uint64_t eval_eq(uint64_t a, uint64_t b, unsigned) { return a == b; }
constexpr uint64_t eval_ne(uint64_t a, uint64_t b, unsigned) { return a != b; }
constexpr uint64_t eval_slt(uint64_t a, uint64_t b, unsigned bits) { return sign_extend(a, bits) < sign_extend(b, bits); }
constexpr uint64_t eval_sle(uint64_t a, uint64_t b, unsigned bits) { return sign_extend(a, bits) <= sign_extend(b, bits); }
constexpr uint64_t eval_ult(uint64_t a, uint64_t b, unsigned) { return a < b; }
constexpr uint64_t eval_ule(uint64_t a, uint64_t b, unsigned) { return a <= b; }

// Conversions: check_conversion() first.
constexpr EvalError check_conversion(Op op, unsigned from_bits, unsigned to_bits) {
  bool ok = op == Op::Trunc ? to_bits <= from_bits : to_bits >= from_bits;
  return ok ? EvalError::None : EvalError::BadConversion;
}
constexpr uint64_t eval_sext(uint64_t a, unsigned from_bits, unsigned to_bits) {
  return truncate_to(static_cast<uint64_t>(sign_extend(a, from_bits)), to_bits);
}
constexpr uint64_t eval_zext(uint64_t a, unsigned, unsigned) { return a; }
constexpr uint64_t eval_trunc(uint64_t a, unsigned, unsigned to_bits) { return truncate_to(a, to_bits); }
constexpr uint64_t eval_select(uint64_t c, uint64_t a, uint64_t b) { return c != 0 ? a : b; }

// A `const` literal (Int or UInt) as a value of `bits` bits.
uint64_t const_value(const Literal& lit, unsigned bits);

// ---- generic dispatch ----------------------------------------------------------
// The families eval_pure() knows; everything else is NotEvaluable.
enum class EvalClass : uint8_t { None, Const, Unary, Binary, Shift, Divide, Compare, Convert, Select };
EvalClass eval_class(OpId op);
// The generic opcodes an ast:op may name: every class above but Const and None
// (arithmetic, shifts, division, comparisons, conversions), and the
// floating-point opcodes but fconst (is_float_op), and constant_p
// (__builtin_constant_p, which no evaluator folds: it asks the optimizer).
bool is_ast_op_target(OpId op);

// Two-operand opcodes (Binary, Shift, Divide, Compare): the result, or nullopt
// with `err` set. `bits` is the width of the type literal.
std::optional<uint64_t> eval_binary(Op op, unsigned bits, uint64_t a, uint64_t b, EvalError& err);

// The floating-point opcodes of opcodes.def (fconst, arithmetic, fcmp,
// conversions, bitcast). They are kept out of eval_class() and eval_pure():
// a folder must opt in to them (eval_float_pure) and keep their results as
// bit patterns of a floating type, never as an integer `const`.
bool is_float_op(OpId op);
// Types a bitcast may join: f32 and i32, or f64 and i64, either way.
bool bitcast_pair(ValueType a, ValueType b);
// The comparison predicate of a float comparison opcode (is_float_op and
// results an i32).
std::optional<FloatPred> float_pred(OpId op);
// The value of a floating-point node (is_float_op), as eval_pure() for the
// integer ones: literals decoded from the table, operands in the value
// representation of their types, nullopt with `err` set when it has none
// (FloatToIntOverflow) or the node is malformed (NotEvaluable).
std::optional<uint64_t> eval_float_pure(OpId op, std::span<const Literal> lits, std::span<const uint64_t> args,
                                        EvalError* err);

// The value of a pure or dividing node: `lits` are its literals, `args` its
// input values (value representation above). Literal and input counts and
// kinds are checked against the opcode table's shapes; anything that does
// not fit, and opcodes without a fixed meaning here (symaddr, stackslot,
// undefined, memory operations, control), give nullopt with NotEvaluable.
// `err` may be null.
std::optional<uint64_t> eval_pure(OpId op, std::span<const Literal> lits, std::span<const uint64_t> args,
                                  EvalError* err);

}  // namespace pl
