// eval_float_op.h - one floating-point opcode applied to decoded operands.
//
// eval.cpp's eval_float_pure() decodes a node's literals and calls this;
// the interpreter decodes them once per node at load time and calls it per
// execution. The meanings are eval_float.h's. (A header of its own, not
// part of eval.h, so that the stages that do not run floating point do not
// depend on it.)
#pragma once

#include <optional>

#include "ir/eval.h"

namespace pl {

// `op` is_float_op() but fconst; `t0` its first type literal, `t1` the
// second (conversions) or anything; `a`, `b` the operands (b unused for
// one-operand opcodes). nullopt with `err` set: FloatToIntOverflow (fptosi,
// fptoui out of range), BadConversion (a conversion or bitcast between
// types it does not join), NotEvaluable (not such an opcode).
inline std::optional<uint64_t> eval_float_op(OpId op, ValueType t0, ValueType t1, uint64_t a, uint64_t b,
                                             EvalError& err) {
  const bool f32 = t0 == ValueType::F32;
  auto fail = [&](EvalError e) -> std::optional<uint64_t> {
    err = e;
    return std::nullopt;
  };
  if (std::optional<FloatPred> p = float_pred(op)) return eval_fcmp(*p, a, b, f32);
  switch (op) {
    case Op::FAdd: return eval_fadd(a, b, f32);
    case Op::FSub: return eval_fsub(a, b, f32);
    case Op::FMul: return eval_fmul(a, b, f32);
    case Op::FDiv: return eval_fdiv(a, b, f32);
    case Op::FNeg: return eval_fneg(a, f32);
    case Op::FAbs: return eval_fabs(a, f32);
    case Op::FSqrt: return eval_fsqrt(a, f32);
    case Op::SIToFP:
    case Op::UIToFP: return eval_itofp(a, type_bits(t0), op == Op::SIToFP, t1 == ValueType::F32);
    case Op::FPToSI:
    case Op::FPToUI: {
      std::optional<uint64_t> v = eval_fptoi(a, f32, type_bits(t1), op == Op::FPToSI);
      if (!v) return fail(EvalError::FloatToIntOverflow);
      return v;
    }
    case Op::FPExt:
      if (t0 != ValueType::F32 || t1 != ValueType::F64) return fail(EvalError::BadConversion);
      return eval_fpext(a);
    case Op::FPTrunc:
      if (t0 != ValueType::F64 || t1 != ValueType::F32) return fail(EvalError::BadConversion);
      return eval_fptrunc(a);
    case Op::Bitcast:
      if (!bitcast_pair(t0, t1)) return fail(EvalError::BadConversion);
      return a;
    default: return fail(EvalError::NotEvaluable);
  }
}

}  // namespace pl
