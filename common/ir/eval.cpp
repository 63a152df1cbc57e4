// eval.cpp - generic dispatch over the opcode meanings of eval.h.
//
// The meanings themselves are the constexpr functions in eval.h (the
// interpreter calls them directly in its inner loop). This file decodes a
// node the table-driven way: the literal shape of the opcode's row in
// opcodes.def says which literals are value types (`t`) and which is the
// constant (`i`), the input shape says how many operands it takes, and
// eval_class() sorts the pure and dividing rows into families.
#include "ir/eval.h"
#include "ir/eval_float_op.h"

#include <array>

namespace pl {

namespace {

constexpr std::array<std::string_view, 9> kTypeNames = {"i1", "i8", "i16", "i32", "i64", "ptr", "f32", "f64", "v128"};

bool is_type_letter(char c) { return c == 't' || c == 'I' || c == 'F'; }

// The value types named by the type literals (`t`, `I`, `F`) of the row, in
// order; a type of the wrong family for its letter is not ok.
struct DecodedTypes {
  unsigned bits[2] = {0, 0};
  ValueType types[2] = {ValueType::I64, ValueType::I64};
  size_t count = 0;
  bool ok = true;
};

DecodedTypes decode_types(const OpInfo& info, std::span<const Literal> lits) {
  DecodedTypes d;
  for (size_t i = 0; i < info.literals.size() && i < lits.size(); ++i) {
    char letter = info.literals[i];
    if (!is_type_letter(letter)) continue;
    std::optional<ValueType> t = literal_value_type(lits[i]);
    if (!t || d.count == 2 || (letter == 'I' && is_float(*t)) || (letter == 'F' && !is_float(*t))) {
      d.ok = false;
      return d;
    }
    d.types[d.count] = *t;
    d.bits[d.count++] = type_bits(*t);
  }
  return d;
}

std::optional<uint64_t> fail(EvalError& err, EvalError why) {
  err = why;
  return std::nullopt;
}

uint64_t eval_unary(Op op, unsigned bits, uint64_t a) { return op == Op::Neg ? eval_neg(a, bits) : eval_not(a, bits); }

uint64_t eval_convert(Op op, unsigned from_bits, unsigned to_bits, uint64_t a) {
  switch (op) {
    case Op::SExt: return eval_sext(a, from_bits, to_bits);
    case Op::ZExt: return eval_zext(a, from_bits, to_bits);
    default: return eval_trunc(a, from_bits, to_bits);
  }
}

}  // namespace

std::optional<ValueType> parse_value_type(std::string_view name) {
  for (size_t i = 0; i < kTypeNames.size(); ++i)
    if (kTypeNames[i] == name) return static_cast<ValueType>(i);
  return std::nullopt;
}

std::string_view value_type_name(ValueType t) { return kTypeNames[static_cast<size_t>(t)]; }

std::optional<ValueType> literal_value_type(const Literal& lit) {
  if (lit.kind() != Literal::Kind::String) return std::nullopt;
  return parse_value_type(lit.as_string());
}

std::string_view eval_error_message(EvalError e) {
  switch (e) {
    case EvalError::None: return "no error";
    case EvalError::DivisionByZero: return "division by zero";
    case EvalError::DivisionOverflow: return "signed overflow in division (the minimum value divided by -1)";
    case EvalError::ShiftOutOfRange: return "shift amount is not below the width of the type";
    case EvalError::BadConversion: return "conversion in the wrong direction (sext/zext must widen, trunc narrow)";
    case EvalError::FloatToIntOverflow:
      return "floating-point value out of the range of the integer type it is converted to (or NaN or infinite)";
    case EvalError::QuotientOverflow: return "division error (#DE): the quotient does not fit the operand size";
    case EvalError::NotEvaluable: return "not a pure or dividing operation";
  }
  return "unknown error";
}

uint64_t const_value(const Literal& lit, unsigned bits) {
  uint64_t raw = lit.kind() == Literal::Kind::UInt ? lit.as_uint() : static_cast<uint64_t>(lit.as_int());
  return truncate_to(raw, bits);
}

EvalClass eval_class(OpId op) {
  switch (op) {
    case Op::Const: return EvalClass::Const;
    case Op::Neg:
    case Op::Not: return EvalClass::Unary;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::And:
    case Op::Or:
    case Op::Xor: return EvalClass::Binary;
    case Op::Shl:
    case Op::LShr:
    case Op::AShr: return EvalClass::Shift;
    case Op::SDiv:
    case Op::UDiv:
    case Op::SRem:
    case Op::URem: return EvalClass::Divide;
    case Op::Eq:
    case Op::Ne:
    case Op::SLt:
    case Op::SLe:
    case Op::ULt:
    case Op::ULe: return EvalClass::Compare;
    case Op::SExt:
    case Op::ZExt:
    case Op::Trunc: return EvalClass::Convert;
    case Op::Select: return EvalClass::Select;
    default: return EvalClass::None;
  }
}

bool is_float_op(OpId op) {
  switch (op) {
    case Op::FConst:
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::FNeg:
    case Op::FAbs:
    case Op::FSqrt:
    case Op::SIToFP:
    case Op::UIToFP:
    case Op::FPToSI:
    case Op::FPToUI:
    case Op::FPExt:
    case Op::FPTrunc:
    case Op::Bitcast: return true;
    default: return float_pred(op).has_value();
  }
}

std::optional<FloatPred> float_pred(OpId op) {
  switch (op) {
    case Op::FOEq: return FloatPred::OEq;
    case Op::FONe: return FloatPred::ONe;
    case Op::FOLt: return FloatPred::OLt;
    case Op::FOLe: return FloatPred::OLe;
    case Op::FOGt: return FloatPred::OGt;
    case Op::FOGe: return FloatPred::OGe;
    case Op::FOrd: return FloatPred::Ord;
    case Op::FUEq: return FloatPred::UEq;
    case Op::FUNe: return FloatPred::UNe;
    case Op::FULt: return FloatPred::ULt;
    case Op::FULe: return FloatPred::ULe;
    case Op::FUGt: return FloatPred::UGt;
    case Op::FUGe: return FloatPred::UGe;
    case Op::FUno: return FloatPred::Uno;
    default: return std::nullopt;
  }
}

bool is_ast_op_target(OpId op) {
  if (op == Op::ConstantP) return true;
  if (is_float_op(op)) return op != Op::FConst;
  EvalClass k = eval_class(op);
  return k != EvalClass::None && k != EvalClass::Const && k != EvalClass::Select;
}

// A bitcast's two types: f32 and i32, or f64 and i64, either way.
bool bitcast_pair(ValueType a, ValueType b) {
  auto pair = [&](ValueType f, ValueType i) { return (a == f && b == i) || (a == i && b == f); };
  return pair(ValueType::F32, ValueType::I32) || pair(ValueType::F64, ValueType::I64);
}

std::optional<uint64_t> eval_float_pure(OpId op, std::span<const Literal> lits, std::span<const uint64_t> args,
                                        EvalError* err_out) {
  EvalError local = EvalError::None;
  EvalError& err = err_out ? *err_out : local;
  err = EvalError::None;
  if (op >= kNumOps || !is_float_op(op)) return fail(err, EvalError::NotEvaluable);
  const OpInfo& info = op_info(op);
  if (lits.size() != info.literals.size() || !shape_accepts(info.inputs, args.size()))
    return fail(err, EvalError::NotEvaluable);
  DecodedTypes types = decode_types(info, lits);
  if (!types.ok || types.count == 0) return fail(err, EvalError::NotEvaluable);
  const ValueType t0 = types.types[0];
  const bool f32 = t0 == ValueType::F32;
  for (uint64_t a : args)
    if (a != truncate_to(a, types.bits[0])) return fail(err, EvalError::NotEvaluable);
  if (op == Op::FConst) {
    if (lits[1].kind() != Literal::Kind::Float) return fail(err, EvalError::NotEvaluable);
    uint64_t d = lits[1].bits();
    if (!f32) return d;
    if (!f64_bits_fit_f32(d)) return fail(err, EvalError::NotEvaluable);
    return f32_bits_of_f64_bits(d);
  }
  return eval_float_op(op, t0, types.types[1], args[0], args.size() > 1 ? args[1] : 0, err);
}

std::optional<uint64_t> eval_binary(Op op, unsigned bits, uint64_t a, uint64_t b, EvalError& err) {
  switch (eval_class(op)) {
    case EvalClass::Shift:
      if (!shift_in_range(b, bits)) return fail(err, EvalError::ShiftOutOfRange);
      break;
    case EvalClass::Divide: {
      EvalError e = check_division(op, a, b, bits);
      if (e != EvalError::None) return fail(err, e);
      break;
    }
    case EvalClass::Binary:
    case EvalClass::Compare: break;
    default: return fail(err, EvalError::NotEvaluable);
  }
  switch (op) {
    case Op::Add: return eval_add(a, b, bits);
    case Op::Sub: return eval_sub(a, b, bits);
    case Op::Mul: return eval_mul(a, b, bits);
    case Op::And: return eval_and(a, b, bits);
    case Op::Or: return eval_or(a, b, bits);
    case Op::Xor: return eval_xor(a, b, bits);
    case Op::Shl: return eval_shl(a, b, bits);
    case Op::LShr: return eval_lshr(a, b, bits);
    case Op::AShr: return eval_ashr(a, b, bits);
    case Op::SDiv: return eval_sdiv(a, b, bits);
    case Op::UDiv: return eval_udiv(a, b, bits);
    case Op::SRem: return eval_srem(a, b, bits);
    case Op::URem: return eval_urem(a, b, bits);
    case Op::Eq: return eval_eq(a, b, bits);
    case Op::Ne: return eval_ne(a, b, bits);
    case Op::SLt: return eval_slt(a, b, bits);
    case Op::SLe: return eval_sle(a, b, bits);
    case Op::ULt: return eval_ult(a, b, bits);
    case Op::ULe: return eval_ule(a, b, bits);
    default: return fail(err, EvalError::NotEvaluable);
  }
}

std::optional<uint64_t> eval_pure(OpId op, std::span<const Literal> lits, std::span<const uint64_t> args,
                                  EvalError* err_out) {
  EvalError local = EvalError::None;
  EvalError& err = err_out ? *err_out : local;
  err = EvalError::None;
  EvalClass cls = op < kNumOps ? eval_class(op) : EvalClass::None;
  if (cls == EvalClass::None) return fail(err, EvalError::NotEvaluable);
  const OpInfo& info = op_info(op);
  if (lits.size() != info.literals.size() || !shape_accepts(info.inputs, args.size()))
    return fail(err, EvalError::NotEvaluable);
  DecodedTypes types = decode_types(info, lits);
  if (!types.ok || types.count == 0) return fail(err, EvalError::NotEvaluable);
  unsigned bits = types.bits[0];
  // Operands must already be in the value representation of their type.
  unsigned operand_bits = bits;
  // (A select's condition may be of any width: only its values have the type.)
  for (size_t i = cls == EvalClass::Select ? 1 : 0; i < args.size(); ++i)
    if (args[i] != truncate_to(args[i], operand_bits)) return fail(err, EvalError::NotEvaluable);
  switch (cls) {
    case EvalClass::Select: return eval_select(args[0], args[1], args[2]);
    case EvalClass::Const:
      if (!lits[1].is_int()) return fail(err, EvalError::NotEvaluable);
      return const_value(lits[1], bits);
    case EvalClass::Unary: return eval_unary(static_cast<Op>(op), bits, args[0]);
    case EvalClass::Convert: {
      unsigned to_bits = types.bits[1];
      EvalError e = check_conversion(static_cast<Op>(op), bits, to_bits);
      if (e != EvalError::None) return fail(err, e);
      return eval_convert(static_cast<Op>(op), bits, to_bits, args[0]);
    }
    default: return eval_binary(static_cast<Op>(op), bits, args[0], args[1], err);
  }
}

}  // namespace pl
