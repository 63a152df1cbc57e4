// floats.cpp - float and double in C expressions (issue 18; FORMAT.md G,
// "Floating point").
//
// C's float is the IR's f32 and double f64; each operation computes in its
// own type (FLT_EVAL_METHOD 0, as gcc on x86-64 with SSE2), so the usual
// arithmetic conversions clang made explicit are all there is:
//
//   - constants: a literal's exact bits from clang's APFloat (decimal
//     literals are rounded to nearest even by clang, hex ones are exact);
//     an f32 constant's literal is the double of the same value, a NaN's
//     payload moved, not converted (FORMAT.md 2);
//   - conversions: f32 <-> f64 are fpext/fptrunc; an integer becomes a
//     floating value by sitofp (signed types) or uitofp (unsigned ones,
//     _Bool); a floating value becomes an integer as gcc's SSE2 code does
//     it: fptosi to i32 then trunc for char and short (either sign),
//     fptosi to i64 then trunc for unsigned int, fptosi to int and long,
//     fptoui to unsigned long. Every in-range value converts exactly as C
//     says; out of range (undefined in C) gives what gcc's cvttsd2si gives
//     where the first conversion fits, and otherwise what pipe-run reports;
//   - arithmetic: fadd fsub fmul fdiv, unary minus fneg;
//   - comparisons: == is foeq, != fune (true for a NaN), < <= > >= are
//     folt fole fogt foge (false for a NaN);
//   - truth tests (`if (x)`, `!x`, `x && y`, `x ? :`, conversion to _Bool):
//     `fune x, 0.0`, true for a NaN and false for -0.0, as C says; the
//     ast level's conditions are then integers, which ast2cfg's `if` tests;
//   - the builtins glibc's <math.h> macros and real code use: huge_val,
//     inf, nan (clang's evaluator gives the constant), isnan, isinf,
//     isinf_sign, isfinite, isnormal, signbit, fpclassify, the isgreater
//     family, fabs, copysign and sqrt (and their f forms) become IR
//     operations; a value tested several times goes through a temporary
//     (the ast is a tree).
//
// long double is long_double.cpp's (f80_builtin below for its builtins);
// _Float16 and __float128 are refused by Types::check; _Complex is
// complex.cpp's; a builtin not listed here goes the way of every other builtin
// (expressions.cpp: the library function it names, or refused by name).
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

#include "c2ast.h"

#include <clang/Basic/Builtins.h>
#include "ir/eval_float.h"

namespace pl::c2ast {

using namespace clang;

namespace {

// The smallest positive normal number of the type (DBL_MIN, FLT_MIN).
double min_normal(VType t) {
  return t == VType::F32 ? static_cast<double>(std::numeric_limits<float>::min()) : std::numeric_limits<double>::min();
}

// The integer type of a floating type's bits.
VType bits_type(VType t) { return t == VType::F32 ? VType::I32 : VType::I64; }

}  // namespace

NodeId FunctionBuilder::float_constant(VType t, const llvm::APFloat& value, Loc l) {
  if (t == VType::F80) return f80_constant(value, l);
  uint64_t bits = value.bitcastToAPInt().getZExtValue();
  if (t == VType::F32) {
    if (&value.getSemantics() != &llvm::APFloat::IEEEsingle()) {
      llvm::APFloat single = value;
      bool lost = false;
      single.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &lost);
      bits = single.bitcastToAPInt().getZExtValue();
    }
    bits = f64_bits_of_f32_bits(static_cast<uint32_t>(bits));
  } else if (&value.getSemantics() != &llvm::APFloat::IEEEdouble()) {
    llvm::APFloat wide = value;
    bool lost = false;
    wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
    bits = wide.bitcastToAPInt().getZExtValue();
  }
  return add(Op::AstFConst, l, {Literal::string(vtype_name(t)), Literal::float_bits(bits)}, {});
}

NodeId FunctionBuilder::float_constant(VType t, double value, Loc l) {
  // Only numbers both types represent exactly (0.0, 1.0, inf, DBL_MIN or
  // FLT_MIN for its own type) are asked for.
  return add(Op::AstFConst, l, {Literal::string(vtype_name(t)), Literal::float_bits(std::bit_cast<uint64_t>(value))}, {});
}

NodeId FunctionBuilder::float_convert(NodeId v, Scalar from, Scalar to, Loc l) {
  if (from.vt == to.vt) return v;
  if (is_float(from.vt) && is_float(to.vt))
    return conversion(from.vt == VType::F32 ? "fpext" : "fptrunc", from.vt, to.vt, l, v);
  if (is_float(to.vt)) return conversion(from.is_signed ? "sitofp" : "uitofp", from.vt, to.vt, l, v);
  // Floating to integer, as gcc's cvttss2si/cvttsd2si code does it.
  switch (to.vt) {
    case VType::I8:
    case VType::I16: return conversion("trunc", VType::I32, to.vt, l, conversion("fptosi", from.vt, VType::I32, l, v));
    case VType::I32:
      if (to.is_signed) return conversion("fptosi", from.vt, VType::I32, l, v);
      return conversion("trunc", VType::I64, VType::I32, l, conversion("fptosi", from.vt, VType::I64, l, v));
    case VType::I64: return conversion(to.is_signed ? "fptosi" : "fptoui", from.vt, VType::I64, l, v);
    default: break;
  }
  throw CError{SourceLocation(), std::string("unsupported: conversion from ") + vtype_name(from.vt) + " to " +
                                     vtype_name(to.vt)};
}

NodeId FunctionBuilder::truth(NodeId v, VType t, Loc l) {
  if (t == VType::F80) return f80_compare("fune", v, f80_constant(0.0L, l), l);
  if (!is_float(t)) return v;
  return op("fune", t, l, v, float_constant(t, 0.0, l));
}

NodeId FunctionBuilder::condition(const Expr* e) {
  QualType t = e->getType();
  if (t->isAnyComplexType()) return complex_truth(e);  // complex.cpp
  NodeId v = rvalue(e);
  if (Types::is_int128(t)) return int128_truth(v, loc(e->getExprLoc()));  // int128.cpp
  if (!t->isRealFloatingType()) return v;
  return truth(v, scalar(e).vt, loc(e->getExprLoc()));
}

NodeId FunctionBuilder::float_arithmetic(BinaryOperatorKind opcode, VType t, NodeId a, NodeId b, Loc l,
                                         SourceLocation where) {
  const char* name = nullptr;
  switch (opcode) {
    case BO_Add: name = "fadd"; break;
    case BO_Sub: name = "fsub"; break;
    case BO_Mul: name = "fmul"; break;
    case BO_Div: name = "fdiv"; break;
    case BO_EQ: name = "foeq"; break;
    case BO_NE: name = "fune"; break;
    case BO_LT: name = "folt"; break;
    case BO_LE: name = "fole"; break;
    case BO_GT: name = "fogt"; break;
    case BO_GE: name = "foge"; break;
    default:
      unsupported(where, std::string("operator '") + BinaryOperator::getOpcodeStr(opcode).str() +
                             "' on floating values");
  }
  return op(name, t, l, a, b);
}

// ---- builtins ---------------------------------------------------------------------

namespace {

// The builtins that become IR operations, by name without the f suffix
// (`__builtin_sqrtf` is `sqrt` on an f32).
enum class FloatBuiltin {
  None, Constant, IsNan, IsInf, IsInfSign, IsFinite, IsNormal, SignBit, FpClassify, Fabs, CopySign, Sqrt,
  IsGreater, IsGreaterEqual, IsLess, IsLessEqual, IsLessGreater, IsUnordered
};

FloatBuiltin float_builtin_kind(const std::string& name) {
  static const std::pair<const char*, FloatBuiltin> table[] = {
      {"__builtin_huge_val", FloatBuiltin::Constant}, {"__builtin_huge_valf", FloatBuiltin::Constant},
      {"__builtin_inf", FloatBuiltin::Constant},      {"__builtin_inff", FloatBuiltin::Constant},
      {"__builtin_nan", FloatBuiltin::Constant},      {"__builtin_nanf", FloatBuiltin::Constant},
      {"__builtin_nans", FloatBuiltin::Constant},     {"__builtin_nansf", FloatBuiltin::Constant},
      {"__builtin_isnan", FloatBuiltin::IsNan},       {"__builtin_isinf", FloatBuiltin::IsInf},
      {"__builtin_isinf_sign", FloatBuiltin::IsInfSign}, {"__builtin_isfinite", FloatBuiltin::IsFinite},
      {"__builtin_isnormal", FloatBuiltin::IsNormal}, {"__builtin_signbit", FloatBuiltin::SignBit},
      {"__builtin_signbitf", FloatBuiltin::SignBit},  {"__builtin_fpclassify", FloatBuiltin::FpClassify},
      {"__builtin_fabs", FloatBuiltin::Fabs},         {"__builtin_fabsf", FloatBuiltin::Fabs},
      {"__builtin_copysign", FloatBuiltin::CopySign}, {"__builtin_copysignf", FloatBuiltin::CopySign},
      {"__builtin_sqrt", FloatBuiltin::Sqrt},         {"__builtin_sqrtf", FloatBuiltin::Sqrt},
      {"__builtin_isgreater", FloatBuiltin::IsGreater}, {"__builtin_isgreaterequal", FloatBuiltin::IsGreaterEqual},
      {"__builtin_isless", FloatBuiltin::IsLess},     {"__builtin_islessequal", FloatBuiltin::IsLessEqual},
      {"__builtin_islessgreater", FloatBuiltin::IsLessGreater},
      {"__builtin_isunordered", FloatBuiltin::IsUnordered},
      // long double (long_double.cpp; f80_builtin below)
      {"__builtin_huge_vall", FloatBuiltin::Constant}, {"__builtin_infl", FloatBuiltin::Constant},
      {"__builtin_nanl", FloatBuiltin::Constant},     {"__builtin_nansl", FloatBuiltin::Constant},
      {"__builtin_signbitl", FloatBuiltin::SignBit},  {"__builtin_fabsl", FloatBuiltin::Fabs},
      {"__builtin_copysignl", FloatBuiltin::CopySign}, {"__builtin_sqrtl", FloatBuiltin::Sqrt},
  };
  for (const auto& [n, kind] : table)
    if (name == n) return kind;
  return FloatBuiltin::None;
}

}  // namespace

bool is_float_builtin(const std::string& name) { return float_builtin_kind(name) != FloatBuiltin::None; }

// The C library's sqrt, fabs and copysign (and their f forms) called by
// name, as clang recognises them (not under -fno-builtin): the same IR as
// their __builtin_ forms, as gcc treats them.
NodeId FunctionBuilder::float_library_call(const CallExpr* c, unsigned id) {
  switch (id) {
    case Builtin::BIsqrt: case Builtin::BIsqrtf: case Builtin::BIfabs: case Builtin::BIfabsf:
    case Builtin::BIcopysign: case Builtin::BIcopysignf: case Builtin::BIfabsl: case Builtin::BIcopysignl:
      return float_builtin(c, "__builtin_" + std::string(ctx_.BuiltinInfo.getName(id)));
    case Builtin::BIsqrtl:  // f80_builtin: fsqrt, with errno the library's sqrtl for a negative argument
      return float_builtin(c, "__builtin_sqrtl");
    default:
      return kNone;
  }
}

// gcc's match.pd narrows a rounding function of a float widened to double
// to the float function, when optimizing (-O1 and up; clang's Optimize,
// which pipecc's -O sets) and the call is the library's (not under
// -fno-builtin, -fno-builtin-NAME, -ffreestanding): floor((double)f) is
// (double)floorf(f), and so are ceil, trunc, round, nearbyint and rint.
// gcc does it in its middle end, where a definition of the function in the
// file that binds locally (not weak) can make calls go to that definition
// (gcc -O2 calls it; gcc -O1 may still expand the builtin inline: defining
// a reserved name is undefined, C11 7.1.3): c2ast then calls the file's
// function, as the program says. The value is the same either way
// (each is exact in float); what changes is the function called, which
// c-torture's 20030125-1 observes by defining a weak floor that aborts.
NodeId FunctionBuilder::narrowed_rounding_call(const CallExpr* c, unsigned id) {
  static constexpr std::pair<unsigned, const char*> kNarrowed[] = {
      {Builtin::BIfloor, "floorf"}, {Builtin::BIceil, "ceilf"},           {Builtin::BItrunc, "truncf"},
      {Builtin::BIround, "roundf"}, {Builtin::BInearbyint, "nearbyintf"}, {Builtin::BIrint, "rintf"}};
  const char* narrow = nullptr;
  for (const auto& [from, to] : kNarrowed)
    if (from == id) narrow = to;
  if (!narrow || !ctx_.getLangOpts().Optimize || c->getNumArgs() != 1) return kNone;
  if (const FunctionDecl* callee = c->getDirectCallee()) {
    const FunctionDecl* definition = callee->getDefinition();
    if (definition && !definition->hasAttr<WeakAttr>()) return kNone;
  }
  const auto* widened = dyn_cast<CastExpr>(c->getArg(0)->IgnoreParens());
  if (!widened || widened->getCastKind() != CK_FloatingCast) return kNone;
  const Expr* value = widened->getSubExpr();
  if (!ctx_.hasSameUnqualifiedType(value->getType(), ctx_.FloatTy)) return kNone;
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  QualType type = ctx_.getFunctionType(ctx_.FloatTy, {ctx_.FloatTy}, FunctionProtoType::ExtProtoInfo());
  NodeId call = add(Op::AstCall, l, {Literal::string("f32")},
                    {symaddr(module_.library_function(narrow, type, where), l), rvalue(value)});
  return conversion("fpext", VType::F32, VType::F64, l, call);
}

NodeId FunctionBuilder::float_builtin(const CallExpr* c, const std::string& name) {
  FloatBuiltin kind = float_builtin_kind(name);
  if (kind == FloatBuiltin::None) return kNone;
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (kind == FloatBuiltin::Constant) {
    llvm::APFloat value(0.0);
    if (!c->EvaluateAsFloat(value, ctx_)) unsupported(where, "builtin '" + name + "' with an argument that is not a constant");
    return float_constant(scalar(c).vt, value, l);
  }
  {
    // A long double operand (or result): f80_builtin.
    bool f80 = Types::is_long_double(c->getType());
    for (unsigned i = 0; i < c->getNumArgs(); ++i) f80 = f80 || Types::is_long_double(c->getArg(i)->getType());
    if (f80 && kind != FloatBuiltin::FpClassify) return f80_builtin(c, static_cast<int>(kind));
    if (kind == FloatBuiltin::FpClassify && Types::is_long_double(c->getArg(5)->getType()))
      return f80_builtin(c, static_cast<int>(kind));
  }
  auto arg = [&](unsigned i) { return c->getArg(i); };
  auto fabs_of = [&](VType t, NodeId x) { return op("fabs", t, l, x); };
  auto i32 = [&](int64_t v) { return constant(VType::I32, v, l); };
  auto cond = [&](NodeId test, NodeId yes, NodeId no) {
    return add(Op::AstCond, l, {Literal::string("i32")}, {test, yes, no});
  };
  // The sign bit as an i32 0 or 1 (the sign of the bits as an integer).
  auto sign = [&](VType t, NodeId x) {
    VType it = bits_type(t);
    return op("slt", it, l, conversion("bitcast", t, it, l, x), constant(it, 0, l));
  };
  switch (kind) {
    case FloatBuiltin::Fabs: {
      VType t = scalar(c).vt;
      return op("fabs", t, l, rvalue(arg(0)));
    }
    case FloatBuiltin::Sqrt: {
      // sqrt sets errno (EDOM) for a negative argument unless errno is off
      // (-fno-math-errno, -ffast-math): then it is fsqrt alone, else gcc's
      // code, fsqrt and the library call only for a negative argument
      // (a NaN gives NaN either way, with no errno).
      VType t = scalar(c).vt;
      if (!ctx_.getLangOpts().MathErrno) return op("fsqrt", t, l, rvalue(arg(0)));
      Reused x = reuse(rvalue(arg(0)), t, l);
      NodeId negative = op("folt", t, l, x.first, float_constant(t, 0.0, l));
      std::string library = t == VType::F32 ? "sqrtf" : "sqrt";
      QualType callee_type = c->getDirectCallee()->getType();
      InputList call{symaddr(module_.cold_library_function(library, callee_type, where), l), again(x, l)};
      NodeId errno_path = add(Op::AstCall, l, call_literals(c, callee_type), std::move(call));
      return add(Op::AstCond, l, {Literal::string(vtype_name(t))}, {negative, errno_path, op("fsqrt", t, l, again(x, l))});
    }
    case FloatBuiltin::CopySign: {
      VType t = scalar(c).vt, it = bits_type(t);
      int64_t sign_bit = t == VType::F32 ? int64_t{1} << 31 : std::numeric_limits<int64_t>::min();
      NodeId magnitude = op("and", it, l, conversion("bitcast", t, it, l, rvalue(arg(0))), constant(it, ~sign_bit, l));
      NodeId sign_of = op("and", it, l, conversion("bitcast", t, it, l, rvalue(arg(1))), constant(it, sign_bit, l));
      return conversion("bitcast", it, t, l, op("or", it, l, magnitude, sign_of));
    }
    case FloatBuiltin::SignBit: {
      // gcc's value: 1 for a double, the bit in place (0x80000000) for a float.
      VType t = scalar(arg(0)).vt, it = bits_type(t);
      NodeId b = conversion("bitcast", t, it, l, rvalue(arg(0)));
      if (t == VType::F32) return op("and", VType::I32, l, b, constant(VType::I32, int64_t{1} << 31, l));
      return conversion("trunc", VType::I64, VType::I32, l, op("lshr", VType::I64, l, b, constant(VType::I64, 63, l)));
    }
    case FloatBuiltin::IsNan: {
      VType t = scalar(arg(0)).vt;
      return op("funo", t, l, rvalue(arg(0)), float_constant(t, 0.0, l));
    }
    case FloatBuiltin::IsInf:
    case FloatBuiltin::IsFinite: {
      VType t = scalar(arg(0)).vt;
      NodeId magnitude = fabs_of(t, rvalue(arg(0)));
      NodeId inf = float_constant(t, HUGE_VAL, l);
      return op(kind == FloatBuiltin::IsInf ? "foeq" : "folt", t, l, magnitude, inf);
    }
    case FloatBuiltin::IsInfSign: {
      VType t = scalar(arg(0)).vt;
      Reused x = reuse(rvalue(arg(0)), t, l);
      NodeId is_inf = op("foeq", t, l, fabs_of(t, x.first), float_constant(t, HUGE_VAL, l));
      return cond(is_inf, cond(sign(t, again(x, l)), i32(-1), i32(1)), i32(0));
    }
    case FloatBuiltin::IsNormal: {
      VType t = scalar(arg(0)).vt;
      Reused x = reuse(rvalue(arg(0)), t, l);
      NodeId big_enough = op("foge", t, l, fabs_of(t, x.first), float_constant(t, min_normal(t), l));
      NodeId finite = op("folt", t, l, fabs_of(t, again(x, l)), float_constant(t, HUGE_VAL, l));
      return add(Op::AstAnd, l, {}, {big_enough, finite});
    }
    case FloatBuiltin::FpClassify: {
      // fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x):
      // the five are evaluated first, left to right, as C evaluates
      // arguments (they are constants in <math.h>'s macro).
      const Expr* x_expr = arg(5);
      VType t = scalar(x_expr).vt;
      NodeId results[5];
      Reused saved[5];
      for (unsigned i = 0; i < 5; ++i) saved[i] = reuse(rvalue(arg(i)), VType::I32, l), results[i] = kNone;
      Reused x = reuse(rvalue(x_expr), t, l);
      for (unsigned i = 0; i < 5; ++i) results[i] = again(saved[i], l);
      NodeId is_zero_test = op("foeq", t, l, again(x, l), float_constant(t, 0.0, l));
      NodeId is_normal = op("foge", t, l, fabs_of(t, again(x, l)), float_constant(t, min_normal(t), l));
      NodeId is_inf = op("foeq", t, l, fabs_of(t, again(x, l)), float_constant(t, HUGE_VAL, l));
      NodeId is_nan = op("funo", t, l, x.first, float_constant(t, 0.0, l));
      NodeId value =
          cond(is_nan, results[0], cond(is_inf, results[1], cond(is_normal, results[2], cond(is_zero_test, results[4], results[3]))));
      // The five stores run before the test (they are the temporaries' first uses).
      for (unsigned i = 5; i-- > 0;) value = seq(saved[i].first, value, l);
      return value;
    }
    default: break;
  }
  // The isgreater family: quiet comparisons (no exception for a NaN, which
  // SSE2's ucomisd and our comparisons share), in the operands' common type.
  const Expr* a = arg(0);
  const Expr* b = arg(1);
  Scalar sa = scalar(a), sb = scalar(b);
  VType t = is_float(sa.vt) && is_float(sb.vt) ? (sa.vt == VType::F64 || sb.vt == VType::F64 ? VType::F64 : VType::F32)
                                               : (is_float(sa.vt) ? sa.vt : sb.vt);
  Scalar common{t, true};
  NodeId av = float_convert(rvalue(a), sa, common, l);
  NodeId bv = float_convert(rvalue(b), sb, common, l);
  const char* name_of = nullptr;
  switch (kind) {
    case FloatBuiltin::IsGreater: name_of = "fogt"; break;
    case FloatBuiltin::IsGreaterEqual: name_of = "foge"; break;
    case FloatBuiltin::IsLess: name_of = "folt"; break;
    case FloatBuiltin::IsLessEqual: name_of = "fole"; break;
    case FloatBuiltin::IsLessGreater: name_of = "fone"; break;
    default: name_of = "funo"; break;
  }
  return op(name_of, t, l, av, bv);
}

// The builtins on long double (f80 in memory, long_double.cpp): the same
// meanings as above through ast:f80 nodes. The sign bit is bit 7 of byte 9;
// signbit's value is gcc's for long double (fxam's C1: 512 or 0). A value
// used more than once is copied to a temporary first.
NodeId FunctionBuilder::f80_builtin(const CallExpr* c, int kind_number) {
  FloatBuiltin kind = static_cast<FloatBuiltin>(kind_number);
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  auto arg = [&](unsigned i) { return c->getArg(i); };
  auto i32 = [&](int64_t v) { return constant(VType::I32, v, l); };
  auto cond = [&](const char* type, NodeId test, NodeId yes, NodeId no) {
    return add(Op::AstCond, l, {Literal::string(type)}, {test, yes, no});
  };
  // The sign of the long double at address p: i32 1 or 0.
  auto negative = [&](NodeId p) {
    return op("slt", VType::I8, l, load(VType::I8, false, offset(p, 9, l), l), constant(VType::I8, 0, l));
  };
  auto inf = [&] { return f80_constant(HUGE_VALL, l); };
  switch (kind) {
    case FloatBuiltin::Fabs: return f80_unary("abs", rvalue(arg(0)), l);
    case FloatBuiltin::Sqrt: {
      // As sqrt and sqrtf: fsqrt, and with errno (not -fno-math-errno)
      // gcc's test: x < 0 (ordered, so -0.0 and NaN take fsqrt) calls the
      // library's sqrtl, which sets EDOM (its result comes back in st(0),
      // stored to the call's result temporary as any long double result).
      if (!ctx_.getLangOpts().MathErrno) return f80_unary("sqrt", rvalue(arg(0)), l);
      NodeId x = f80_temp(l);
      NodeId held = f80_copy(x, rvalue(arg(0)), l);
      QualType callee_type = c->getDirectCallee()->getType();
      NodeId result = variable(".call", 16, 16, l);
      InputList call{symaddr(module_.cold_library_function("sqrtl", callee_type, where), l), result,
                     copy(16, 16, variable(".arg", 16, 16, l), x, l)};
      NodeId errno_path = seq(add(Op::AstCall, l, call_literals(c, callee_type), std::move(call)), result, l);
      NodeId negative_x = f80_compare("folt", x, f80_constant(0.0L, l), l);
      return seq(held, cond("ptr", negative_x, errno_path, f80_unary("sqrt", x, l)), l);
    }
    case FloatBuiltin::CopySign: {
      NodeId t = f80_temp(l);
      NodeId magnitude = add(Op::AstF80Unary, l, {Literal::string("abs")}, {t, rvalue(arg(0))});
      NodeId y = rvalue(arg(1));
      return seq(magnitude, cond("ptr", negative(y), f80_unary("neg", t, l), t), l);
    }
    case FloatBuiltin::SignBit:
      return op("shl", VType::I32, l, negative(rvalue(arg(0))), i32(9));
    case FloatBuiltin::IsNan: return f80_compare("funo", rvalue(arg(0)), f80_constant(0.0L, l), l);
    case FloatBuiltin::IsInf:
    case FloatBuiltin::IsFinite:
      return f80_compare(kind == FloatBuiltin::IsInf ? "foeq" : "folt", f80_unary("abs", rvalue(arg(0)), l), inf(), l);
    case FloatBuiltin::IsInfSign: {
      NodeId x = f80_temp(l);
      NodeId held = f80_copy(x, rvalue(arg(0)), l);
      NodeId is_inf = f80_compare("foeq", f80_unary("abs", x, l), inf(), l);
      return seq(held, cond("i32", is_inf, cond("i32", negative(x), i32(-1), i32(1)), i32(0)), l);
    }
    case FloatBuiltin::IsNormal: {
      NodeId x = f80_temp(l);
      NodeId held = f80_copy(x, rvalue(arg(0)), l);
      NodeId big_enough = f80_compare("foge", f80_unary("abs", x, l), f80_constant(LDBL_MIN, l), l);
      NodeId finite = f80_compare("folt", f80_unary("abs", x, l), f80_constant(HUGE_VALL, l), l);
      return seq(held, add(Op::AstAnd, l, {}, {big_enough, finite}), l);
    }
    case FloatBuiltin::FpClassify: {
      Reused saved[5];
      for (unsigned i = 0; i < 5; ++i) saved[i] = reuse(rvalue(arg(i)), VType::I32, l);
      NodeId x = f80_temp(l);
      NodeId held = f80_copy(x, rvalue(arg(5)), l);
      NodeId is_zero_test = f80_compare("foeq", x, f80_constant(0.0L, l), l);
      NodeId is_normal = f80_compare("foge", f80_unary("abs", x, l), f80_constant(LDBL_MIN, l), l);
      NodeId is_inf = f80_compare("foeq", f80_unary("abs", x, l), inf(), l);
      NodeId is_nan = f80_compare("funo", x, f80_constant(0.0L, l), l);
      NodeId value = cond("i32", is_nan, again(saved[0], l),
                          cond("i32", is_inf, again(saved[1], l),
                               cond("i32", is_normal, again(saved[2], l),
                                    cond("i32", is_zero_test, again(saved[4], l), again(saved[3], l)))));
      value = seq(held, value, l);
      for (unsigned i = 5; i-- > 0;) value = seq(saved[i].first, value, l);
      return value;
    }
    default: break;
  }
  // The isgreater family, in long double.
  const Expr* a = arg(0);
  const Expr* b = arg(1);
  Scalar common{VType::F80, true};
  NodeId av = convert(rvalue(a), scalar(a), common, l);
  NodeId bv = convert(rvalue(b), scalar(b), common, l);
  const char* name_of = "funo";
  switch (kind) {
    case FloatBuiltin::IsGreater: name_of = "fogt"; break;
    case FloatBuiltin::IsGreaterEqual: name_of = "foge"; break;
    case FloatBuiltin::IsLess: name_of = "folt"; break;
    case FloatBuiltin::IsLessEqual: name_of = "fole"; break;
    case FloatBuiltin::IsLessGreater: name_of = "fone"; break;
    default: break;
  }
  return f80_compare(name_of, av, bv, l);
}

}  // namespace pl::c2ast
