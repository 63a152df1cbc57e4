// builtins.cpp - GNU builtins that are not library calls, written out as
// integer code (issue 19, "Builtins real code uses").
//
// Bit counting: __builtin_popcount, clz, ctz, ffs, parity, clrsb (and their
// l/ll forms), bswap16/32/64, rotateleft/rotateright 8/16/32/64. Each is a
// short branch-free sequence of the generic integer opcodes over a hidden
// temporary (hold()), so every stage, pipe-run and the back end already know
// what it means and sonopt folds it when the argument is constant:
//   popcount  the SWAR sum (Hacker's Delight 5-1): pairs, nibbles, bytes,
//             then a multiply by 0x01..01 gathers the bytes in the top one;
//   clz       smear the highest set bit right (x |= x >> 1, 2, 4, ...),
//             then width - popcount: 32 or 64 for x = 0, where gcc's result
//             is undefined;
//   ctz       popcount((x & -x) - 1): the width for x = 0 (undefined in gcc);
//   ffs       x ? ctz(x) + 1 : 0;  parity  popcount & 1;
//   clrsb     clz'(x ^ (x >> (w - 1))) - 1, with clz'(0) = w as above,
//             which is what gcc defines for every x;
//   bswap     masks and shifts; rotates shift by n & (w - 1) both ways.
// Narrow operands (8 and 16 bits) are widened to 32 bits first. The
// sequences cost more than the single instructions gcc uses (bsr, tzcnt,
// bswap, rol): giving them opcodes of their own is issue 21's business.
//
// abs, labs, llabs (called by those names where clang takes them for the
// library's: not under -fno-builtin, -fno-builtin-NAME or -ffreestanding,
// llabs not in strict C89, where it is not a gcc builtin) and their
// __builtin_ forms are `x < 0 ? -x : x` in place, as gcc expands them at
// every level, a definition of the name in the file notwithstanding
// (c-torture's 20021127-1 defines its own llabs to abort).
//
// Overflow checks: __builtin_{add,sub,mul}_overflow (generic) and the typed
// forms (sadd, uaddl, smulll_overflow, ...): the infinitely precise result
// must fit the result's type, for operands and results of any integer types
// up to 64 bits. The exact value is built as a 128-bit two's complement
// pair (hi, lo) of i64s: add and sub with the carry or borrow of the low
// halves; mul as |a| * |b| from four 32 x 32 -> 64 partial products
// (Hacker's Delight 8-2), negated when the signs differ. It fits when hi is
// lo's sign extension (signed result) or 0 (unsigned), and truncating lo to
// a narrower result and extending it back gives lo.
//
// No-ops with a value: __builtin_constant_p is 1 where clang's constant
// evaluator says so (a literal, a constant expression, a string literal's
// address; not &global); an operand evaluating which can have no effect and
// cannot trap (harmless_constant_p_operand: variables and arithmetic over
// them) becomes, when clang is told to optimize (-O1 and up: pipecc passes
// its -O flag), the operand of `constant_p`, which the optimizer answers as
// gcc does after inlining and folding (1 when it becomes a constant, else
// 0); any other operand, and any at -O0, is 0 and is not evaluated; __builtin_object_size and
// __builtin_dynamic_object_size answer "unknown" (-1 for types 0 and 1, 0
// for 2 and 3), so _FORTIFY_SOURCE checks stay off rather than wrong;
// __builtin_classify_type is gcc's type class of its operand after the
// promotions (a constant; the operand is not evaluated); __builtin_assume evaluates nothing; __builtin_assume_aligned is its first
// operand; __builtin_prefetch evaluates its operands for their effects.
//
// The table (builtin_family): every builtin c2ast implements, by family.
// FunctionBuilder::call dispatches on it, and feature_test_predefines
// turns it into the answers of `__has_builtin`, so the two cannot
// disagree: a builtin we would refuse is one `__has_builtin` says we lack
// (clang's own answer covers every builtin clang knows, and code such as
// xxHash picks a builtin because clang says yes). The families are
// Alloca and Frame (vla.cpp), Expect, Atomic (atomics.cpp's), Vector
// (vectors.cpp's __builtin_ia32_* and element-wise ones), Va, Trap
// (abort), Float (floats.cpp's table), Complex (complex.cpp's), Bits, Overflow and Query (this file),
// and Library: a builtin that is a C library function (`memcpy`, or
// `__builtin_memcpy` calling `memcpy`). The keyword builtins clang parses
// into expressions of their own (va_arg, offsetof, choose_expr,
// types_compatible_p) are listed in kKeywordBuiltins.
#include "c2ast.h"

#include <clang/Basic/Builtins.h>
#include <clang/Basic/IdentifierTable.h>

namespace pl::c2ast {

using namespace clang;

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "__builtin_clzll" with stem "__builtin_clz" -> true.
bool is_family(const std::string& name, const char* stem) {
  if (!starts_with(name, stem)) return false;
  std::string rest = name.substr(std::string(stem).size());
  return rest.empty() || rest == "l" || rest == "ll";
}

uint64_t repeat_byte(uint8_t byte, unsigned bits) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bits / 8; ++i) v = (v << 8) | byte;
  return v;
}

bool is_bit_builtin(const std::string& name) {
  for (const char* stem : {"__builtin_popcount", "__builtin_clz", "__builtin_ctz", "__builtin_ffs",
                           "__builtin_parity", "__builtin_clrsb"})
    if (is_family(name, stem)) return true;
  for (const char* exact : {"__builtin_bswap16", "__builtin_bswap32", "__builtin_bswap64"})
    if (name == exact) return true;
  for (const char* stem : {"__builtin_rotateleft", "__builtin_rotateright"})
    for (const char* width : {"8", "16", "32", "64"})
      if (name == std::string(stem) + width) return true;
  return false;
}

// "add", "sub" or "mul" for __builtin_add_overflow, __builtin_uaddll_overflow, ...; "" otherwise.
std::string overflow_operation(const std::string& name) {
  for (const char* o : {"add", "sub", "mul"}) {
    if (name == std::string("__builtin_") + o + "_overflow") return o;
    for (const char* sign : {"s", "u"})
      for (const char* width : {"", "l", "ll"})
        if (name == std::string("__builtin_") + sign + o + width + "_overflow") return o;
  }
  return "";
}

struct NamedFamily {
  const char* name;
  BuiltinFamily family;
};

constexpr NamedFamily kNamedBuiltins[] = {
    {"__builtin_expect", BuiltinFamily::Expect},
    {"__builtin_expect_with_probability", BuiltinFamily::Expect},
    {"__builtin_va_start", BuiltinFamily::Va},
    {"__builtin_va_end", BuiltinFamily::Va},
    {"__builtin_va_copy", BuiltinFamily::Va},
    {"__builtin_trap", BuiltinFamily::Trap},
    {"__builtin_unreachable", BuiltinFamily::Trap},
    {"__builtin_constant_p", BuiltinFamily::Query},
    {"__builtin_object_size", BuiltinFamily::Query},
    {"__builtin_dynamic_object_size", BuiltinFamily::Query},
    {"__builtin_classify_type", BuiltinFamily::Query},
    {"__builtin_assume", BuiltinFamily::Query},
    {"__builtin_assume_aligned", BuiltinFamily::Query},
    {"__builtin_prefetch", BuiltinFamily::Query},
};

// Builtins clang parses as expressions of their own (not calls), which
// expressions.cpp converts.
constexpr const char* kKeywordBuiltins[] = {"__builtin_va_arg", "__builtin_offsetof", "__builtin_choose_expr",
                                            "__builtin_types_compatible_p", "__builtin_shufflevector",
                                            "__builtin_convertvector"};

// __builtin_constant_p's operand is evaluated (as an operand of constant_p)
// only when evaluating it can neither have an effect nor trap nor name a
// symbol the program may not define: its type is an integer, a pointer,
// float or double; it is built of literals, enumerators, functions, reads
// of non-volatile, non-atomic scalar variables that are locals, parameters
// or globals defined in this file (not weak), and the conversions,
// unary and binary operators (no division, no assignment) and ?: over
// them. Anything else (a load through a pointer, a call, x++) answers 0
// at once, as gcc does for an operand with side effects.
bool harmless_constant_p_operand(const Expr* e, ASTContext& ctx, bool top = true) {
  e = e->IgnoreParens();
  QualType t = e->getType();
  auto scalar_type = [&](QualType q) {
    if (q->isVariablyModifiedType() || q.isVolatileQualified() || q->isAtomicType()) return false;
    if (!(q->isIntegerType() || q->isPointerType() || q->isRealFloatingType())) return false;
    if (q->isRealFloatingType() && !q->isSpecificBuiltinType(BuiltinType::Float) &&
        !q->isSpecificBuiltinType(BuiltinType::Double))
      return false;
    return ctx.getTypeSize(q) <= 64;
  };
  if (top && !scalar_type(t)) return false;
  if (isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e) || isa<FloatingLiteral>(e)) return true;
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    const ValueDecl* d = ref->getDecl();
    if (isa<EnumConstantDecl>(d) || isa<FunctionDecl>(d)) return true;
    const auto* var = dyn_cast<VarDecl>(d);
    if (!var || var->isWeak() || var->getType().isVolatileQualified() || var->getType()->isAtomicType() ||
        var->getType()->isVariablyModifiedType())
      return false;
    return var->hasLocalStorage() || var->hasDefinition(ctx) != VarDecl::DeclarationOnly;
  }
  if (const auto* cast = dyn_cast<CastExpr>(e)) {
    switch (cast->getCastKind()) {
      case CK_LValueToRValue: case CK_NoOp: case CK_ArrayToPointerDecay: case CK_FunctionToPointerDecay:
      case CK_BitCast: case CK_IntegralCast: case CK_IntegralToBoolean: case CK_IntegralToFloating:
      case CK_FloatingToIntegral: case CK_FloatingCast: case CK_FloatingToBoolean: case CK_PointerToIntegral:
      case CK_IntegralToPointer: case CK_PointerToBoolean: case CK_NullToPointer:
        break;
      default: return false;
    }
    const Expr* sub = cast->getSubExpr();
    bool decays = cast->getCastKind() == CK_ArrayToPointerDecay || cast->getCastKind() == CK_FunctionToPointerDecay;
    if (!decays && !scalar_type(sub->getType())) return false;
    return harmless_constant_p_operand(sub, ctx, false);
  }
  if (const auto* un = dyn_cast<UnaryOperator>(e)) {
    UnaryOperatorKind k = un->getOpcode();
    if (k != UO_Plus && k != UO_Minus && k != UO_Not && k != UO_LNot) return false;
    return scalar_type(un->getSubExpr()->getType()) && harmless_constant_p_operand(un->getSubExpr(), ctx, false);
  }
  if (const auto* bin = dyn_cast<BinaryOperator>(e)) {
    switch (bin->getOpcode()) {
      case BO_Add: case BO_Sub: case BO_Mul: case BO_Shl: case BO_Shr: case BO_And: case BO_Xor: case BO_Or:
      case BO_LT: case BO_GT: case BO_LE: case BO_GE: case BO_EQ: case BO_NE: case BO_LAnd: case BO_LOr:
        break;
      default: return false;
    }
    return scalar_type(bin->getLHS()->getType()) && scalar_type(bin->getRHS()->getType()) &&
           harmless_constant_p_operand(bin->getLHS(), ctx, false) && harmless_constant_p_operand(bin->getRHS(), ctx, false);
  }
  if (const auto* cond = dyn_cast<ConditionalOperator>(e))
    return scalar_type(cond->getCond()->getType()) && scalar_type(cond->getTrueExpr()->getType()) &&
           scalar_type(cond->getFalseExpr()->getType()) && harmless_constant_p_operand(cond->getCond(), ctx, false) &&
           harmless_constant_p_operand(cond->getTrueExpr(), ctx, false) &&
           harmless_constant_p_operand(cond->getFalseExpr(), ctx, false);
  return false;
}

}  // namespace

BuiltinFamily builtin_family(const Builtin::Context& info, unsigned id) {
  if (id == Builtin::BIalloca || id == Builtin::BI__builtin_alloca || id == Builtin::BI__builtin_alloca_with_align)
    return BuiltinFamily::Alloca;
  if (id == Builtin::BI__builtin_frame_address || id == Builtin::BI__builtin_return_address ||
      id == Builtin::BI__builtin_setjmp || id == Builtin::BI__builtin_longjmp)
    return BuiltinFamily::Frame;
  std::string name = info.getName(id);
  if (is_vector_builtin(name)) return BuiltinFamily::Vector;
  if (id >= Builtin::FirstTSBuiltin) return BuiltinFamily::None;  // x86's other __builtin_ia32_*: none
  for (const NamedFamily& b : kNamedBuiltins)
    if (name == b.name) return b.family;
  if (is_float_builtin(name)) return BuiltinFamily::Float;
  if (is_complex_builtin(name)) return BuiltinFamily::Complex;
  if (is_atomic_builtin(name)) return BuiltinFamily::Atomic;
  if (is_bit_builtin(name)) return BuiltinFamily::Bits;
  if (!overflow_operation(name).empty()) return BuiltinFamily::Overflow;
  if (info.isPredefinedLibFunction(id) || (info.isLibFunction(id) && starts_with(name, "__builtin_")))
    return BuiltinFamily::Library;
  return BuiltinFamily::None;
}

// `#define __has_builtin(x) __pipe_has_builtin_##x` and a macro defined
// to 1 for every builtin the table supports (in the language `lang`: what
// clang gives a builtin there, -fno-builtin included); the same for
// `__has_attribute` from attributes.cpp's table, and for `__has_feature`
// and `__has_extension`, the C features clang reports that we implement.
// An identifier no macro names is 0 in `#if`: every other name is
// unsupported. Outside `#if` the result is an identifier, where gcc stops
// with an error.
std::string feature_test_predefines(const LangOptions& lang) {
  std::string out = "# 1 \"<built-in>\" 3\n";  // a system buffer: redefining the builtin macros draws no warning
  auto define_family = [&](const char* test, const char* prefix) {
    out += std::string("#define ") + test + "(x) " + prefix + "##x\n";
  };
  define_family("__has_builtin", "__pipe_has_builtin_");
  Builtin::Context info;
  IdentifierTable identifiers(lang);
  info.initializeBuiltins(identifiers, lang);
  for (unsigned id = Builtin::NotBuiltin + 1; id < Builtin::FirstTSBuiltin; ++id) {
    std::string name = info.getName(id);
    if (identifiers.get(name).getBuiltinID() != id) continue;  // not a builtin in this language
    if (builtin_family(info, id) != BuiltinFamily::None) out += "#define __pipe_has_builtin_" + name + " 1\n";
  }
  for (const char* name : kKeywordBuiltins) out += std::string("#define __pipe_has_builtin_") + name + " 1\n";
  for (const std::string& name : vector_builtin_names()) out += "#define __pipe_has_builtin_" + name + " 1\n";
  define_family("__has_attribute", "__pipe_has_attribute_");
  for (const std::string& name : supported_attribute_spellings()) {
    out += "#define __pipe_has_attribute_" + name + " 1\n";
    out += "#define __pipe_has_attribute___" + name + "__ 1\n";
  }
  // C11's features clang reports (as features from C11 on, as extensions
  // in every C), all of which c2ast implements (c_atomic: atomics.cpp;
  // c_thread_local: attrs.tls data and ast:tlsaddr, expressions.cpp); not
  // any sanitizer.
  define_family("__has_feature", "__pipe_has_feature_");
  define_family("__has_extension", "__pipe_has_extension_");
  for (const char* name : {"c_alignas", "c_alignof", "c_atomic", "c_generic_selections", "c_static_assert",
                           "c_thread_local"}) {
    if (lang.C11) out += std::string("#define __pipe_has_feature_") + name + " 1\n";
    out += std::string("#define __pipe_has_extension_") + name + " 1\n";
  }
  return out;
}

NodeId FunctionBuilder::bits_constant(VType t, uint64_t value, Loc l) {
  return constant(t, static_cast<int64_t>(value), l);
}

// popcount of the value in `var` (type t, 32 or 64 bits), as a t.
NodeId FunctionBuilder::popcount_of(NodeId var, VType t, std::vector<NodeId>& out, Loc l) {
  unsigned w = vtype_bits(t);
  auto x = [&] { return load(t, false, var, l); };
  auto k = [&](uint64_t v) { return bits_constant(t, v, l); };
  // x - ((x >> 1) & 0x55..)
  out.push_back(store(t, false, var, op("sub", t, l, x(), op("and", t, l, op("lshr", t, l, x(), k(1)), k(repeat_byte(0x55, w)))), l));
  // (x & 0x33..) + ((x >> 2) & 0x33..)
  out.push_back(store(t, false, var,
                      op("add", t, l, op("and", t, l, x(), k(repeat_byte(0x33, w))),
                         op("and", t, l, op("lshr", t, l, x(), k(2)), k(repeat_byte(0x33, w)))),
                      l));
  // (x + (x >> 4)) & 0x0f..
  out.push_back(store(t, false, var, op("and", t, l, op("add", t, l, x(), op("lshr", t, l, x(), k(4))), k(repeat_byte(0x0f, w))), l));
  return op("lshr", t, l, op("mul", t, l, x(), k(repeat_byte(0x01, w))), k(w - 8));
}

// Smears the highest set bit of `var` into every lower bit.
void FunctionBuilder::smear_right(NodeId var, VType t, std::vector<NodeId>& out, Loc l) {
  for (unsigned s = 1; s < vtype_bits(t); s *= 2)
    out.push_back(store(t, false, var,
                        op("or", t, l, load(t, false, var, l), op("lshr", t, l, load(t, false, var, l), constant(t, s, l))),
                        l));
}

NodeId FunctionBuilder::to_int(NodeId v, VType from, Loc l) {
  return from == VType::I32 ? v : conversion(vtype_bits(from) > 32 ? "trunc" : "zext", from, VType::I32, l, v);
}

NodeId FunctionBuilder::integer_abs_call(const CallExpr* c, unsigned id) {
  switch (id) {
    case Builtin::BIabs: case Builtin::BIlabs: case Builtin::BI__builtin_abs: case Builtin::BI__builtin_labs:
    case Builtin::BI__builtin_llabs:
      break;
    case Builtin::BIllabs:  // C99: gcc's builtin by that name unless in strict C89
      if (!ctx_.getLangOpts().C99 && !ctx_.getLangOpts().GNUMode) return kNone;
      break;
    default:
      return kNone;
  }
  if (c->getNumArgs() != 1 || !c->getType()->isIntegerType() || !c->getArg(0)->getType()->isIntegerType()) return kNone;
  Loc l = loc(c->getExprLoc());
  Scalar s = scalar(c);
  std::vector<NodeId> out;
  NodeId x = hold(s.vt, convert(rvalue(c->getArg(0)), scalar(c->getArg(0)), s, l), out, l);
  auto get = [&] { return load(s.vt, false, x, l); };
  NodeId negative = op("slt", s.vt, l, get(), constant(s.vt, 0, l));
  NodeId value = add(Op::AstCond, l, {Literal::string(vtype_name(s.vt))}, {negative, op("neg", s.vt, l, get()), get()});
  return seq(block(out, l), value, l);
}

NodeId FunctionBuilder::bit_builtin(const CallExpr* c, const std::string& name) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (!is_bit_builtin(name)) return kNone;
  bool bswap = starts_with(name, "__builtin_bswap");
  bool rotate = starts_with(name, "__builtin_rotateleft") || starts_with(name, "__builtin_rotateright");
  const Expr* arg = c->getArg(0);
  Scalar s = scalar(arg);
  VType t = vtype_bits(s.vt) <= 32 ? VType::I32 : VType::I64;
  unsigned w = vtype_bits(t);
  std::vector<NodeId> out;
  NodeId value = rvalue(arg);
  if (t != s.vt) value = conversion(s.is_signed && !rotate && !bswap ? "sext" : "zext", s.vt, t, l, value);
  NodeId var = hold(t, value, out, l);
  auto x = [&] { return load(t, false, var, l); };
  NodeId result = kNone;
  if (is_family(name, "__builtin_popcount")) {
    result = to_int(popcount_of(var, t, out, l), t, l);
  } else if (is_family(name, "__builtin_parity")) {
    result = to_int(op("and", t, l, popcount_of(var, t, out, l), constant(t, 1, l)), t, l);
  } else if (is_family(name, "__builtin_clz") || is_family(name, "__builtin_clrsb")) {
    if (is_family(name, "__builtin_clrsb"))
      out.push_back(store(t, false, var, op("xor", t, l, x(), op("ashr", t, l, x(), constant(t, w - 1, l))), l));
    smear_right(var, t, out, l);
    NodeId leading = op("sub", t, l, constant(t, w, l), popcount_of(var, t, out, l));
    if (is_family(name, "__builtin_clrsb")) leading = op("sub", t, l, leading, constant(t, 1, l));
    result = to_int(leading, t, l);
  } else if (is_family(name, "__builtin_ctz") || is_family(name, "__builtin_ffs")) {
    // (kept before the sequence below overwrites the temporary)
    NodeId nonzero = is_family(name, "__builtin_ffs") ? hold(VType::I32, op("ne", t, l, x(), constant(t, 0, l)), out, l) : kNone;
    out.push_back(store(t, false, var, op("sub", t, l, op("and", t, l, x(), op("neg", t, l, x())), constant(t, 1, l)), l));
    NodeId trailing = to_int(popcount_of(var, t, out, l), t, l);
    // ffs: ctz + 1 masked to 0 for x = 0 (nonzero is 0 or 1: its negation is the mask)
    result = nonzero == kNone ? trailing
                              : op("and", VType::I32, l, op("add", VType::I32, l, trailing, constant(VType::I32, 1, l)),
                                   op("neg", VType::I32, l, load(VType::I32, false, nonzero, l)));
  } else if (bswap) {
    NodeId acc = byte_swap(var, t, vtype_bits(s.vt), l);  // storage_order.cpp
    result = t == s.vt ? acc : conversion("trunc", t, s.vt, l, acc);
  } else {
    unsigned bits = vtype_bits(s.vt);
    Scalar amount_type = scalar(c->getArg(1));
    NodeId n = convert(rvalue(c->getArg(1)), amount_type, Scalar{t, false}, l);
    if (starts_with(name, "__builtin_rotateright")) n = op("neg", t, l, n);
    NodeId amount = hold(t, op("and", t, l, n, constant(t, bits - 1, l)), out, l);
    auto sh = [&] { return load(t, false, amount, l); };
    // A narrow x (zero-extended) shifted right by bits - n (1 to bits) loses
    // nothing it needs; a full-width one by (w - n) & (w - 1), 0 for n = 0.
    NodeId back = op("sub", t, l, constant(t, bits, l), sh());
    if (bits == w) back = op("and", t, l, back, constant(t, w - 1, l));
    NodeId rotated = op("or", t, l, op("shl", t, l, x(), sh()), op("lshr", t, l, x(), back));
    result = t == s.vt ? rotated : conversion("trunc", t, s.vt, l, rotated);
  }
  return seq(block(out, l), result, l);
}

// __builtin_{add,sub,mul}_overflow and the typed forms: the exact result as
// a 128-bit two's complement pair (hi, lo) of i64 temporaries, then whether
// it fits the result's type (an __int128 result included; __int128
// operands, whose product needs 256 bits, are refused by name).
NodeId FunctionBuilder::overflow_builtin(const CallExpr* c, const std::string& name) {
  std::string operation = overflow_operation(name);
  if (operation.empty()) return kNone;
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  QualType result_type = c->getArg(2)->getType()->getPointeeType();
  if (result_type->isBooleanType() || result_type->isEnumeralType())
    unsupported(where, "'" + name + "' with a _Bool or enum result");
  if (Types::is_int128(c->getArg(0)->getType()) || Types::is_int128(c->getArg(1)->getType()))
    unsupported(where, "'" + name + "' with a 128-bit integer operand");
  bool wide = Types::is_int128(result_type);  // an __int128 result: see below
  Scalar sa = scalar(c->getArg(0)), sb = scalar(c->getArg(1));
  Scalar sr = wide ? Scalar{VType::I64, result_type->isSignedIntegerType()} : types_.scalar(result_type, where);
  constexpr VType W = VType::I64;
  std::vector<NodeId> out;
  auto keep = [&](NodeId v) { return hold(W, v, out, l); };
  auto get = [&](NodeId var) { return load(W, false, var, l); };
  auto k = [&](int64_t v) { return constant(W, v, l); };
  auto bit = [&](NodeId flag) { return conversion("zext", VType::I32, W, l, flag); };  // a compare's 0/1 as i64
  // An operand: lo its value widened to 64 bits, hi its sign extension.
  auto operand = [&](const Expr* e, Scalar s, NodeId& hi, NodeId& lo) {
    NodeId v = rvalue(e);
    if (s.vt != W) v = conversion(s.is_signed ? "sext" : "zext", s.vt, W, l, v);
    lo = keep(v);
    hi = keep(s.is_signed ? op("ashr", W, l, get(lo), k(63)) : k(0));
  };
  NodeId a_hi, a_lo, b_hi, b_lo;
  operand(c->getArg(0), sa, a_hi, a_lo);
  operand(c->getArg(1), sb, b_hi, b_lo);
  NodeId dst = hold(VType::Ptr, rvalue(c->getArg(2)), out, l);
  NodeId hi, lo;
  NodeId negative = kNone, phi = kNone, plo = kNone;  // mul: the product's sign and magnitude
  if (operation == "add") {
    lo = keep(op("add", W, l, get(a_lo), get(b_lo)));
    NodeId carry = bit(op("ult", W, l, get(lo), get(a_lo)));
    hi = keep(op("add", W, l, op("add", W, l, get(a_hi), get(b_hi)), carry));
  } else if (operation == "sub") {
    lo = keep(op("sub", W, l, get(a_lo), get(b_lo)));
    NodeId borrow = bit(op("ult", W, l, get(a_lo), get(b_lo)));
    hi = keep(op("sub", W, l, op("sub", W, l, get(a_hi), get(b_hi)), borrow));
  } else {
    // |a| * |b| from four 32 x 32 -> 64 products, then the sign.
    auto magnitude = [&](NodeId h, NodeId v) {  // h is 0 or -1: (v ^ h) - h
      return keep(op("sub", W, l, op("xor", W, l, get(v), get(h)), get(h)));
    };
    NodeId ma = magnitude(a_hi, a_lo), mb = magnitude(b_hi, b_lo);
    negative = keep(op("xor", W, l, get(a_hi), get(b_hi)));  // 0 or -1
    multiply_64x64(ma, mb, out, l, phi, plo);
    // Negated when the signs differ: (hi, lo) -> (~hi + (lo == 0), -lo), as (x ^ m) - m per half.
    lo = keep(op("sub", W, l, op("xor", W, l, get(plo), get(negative)), get(negative)));
    NodeId lo_zero = bit(op("eq", W, l, get(plo), k(0)));
    NodeId flipped = op("xor", W, l, get(phi), get(negative));
    hi = keep(op("add", W, l, flipped, op("and", W, l, lo_zero, op("and", W, l, get(negative), k(1)))));
  }
  if (wide) {
    // An __int128 result (operands of at most 64 bits): (hi, lo) is the
    // exact value as a 128-bit two's complement pair, stored as is, except
    // that an unsigned 64 x 64 product (magnitude up to 2^128 - 2^65 + 1,
    // positive) does not fit that pair's signed reading. So the result does
    // not fit when: a sum or difference (65 bits at most) is negative and
    // the result unsigned; a product has magnitude (phi, plo) != 0 and a
    // negative sign and the result is unsigned, or is positive with phi's
    // top bit set and the result signed (only |a|, |b| >= 2^63 reach it; a
    // negative product has a signed operand, so magnitude below 2^127).
    out.push_back(store(W, false, get(dst), get(lo), l));
    out.push_back(store(W, false, offset(get(dst), 8, l), get(hi), l));
    constexpr VType B = VType::I32;
    NodeId overflow;
    if (operation != "mul") {
      overflow = sr.is_signed ? constant(B, 0, l) : op("slt", W, l, get(hi), k(0));
    } else if (sr.is_signed) {
      overflow = op("and", B, l, op("eq", W, l, get(negative), k(0)), op("slt", W, l, get(phi), k(0)));
    } else {
      overflow = op("and", B, l, op("ne", W, l, get(negative), k(0)),
                    op("ne", W, l, op("or", W, l, get(phi), get(plo)), k(0)));
    }
    return seq(block(out, l), conversion("trunc", B, VType::I8, l, overflow), l);
  }
  // It fits when hi is lo's sign extension (signed) or 0 (unsigned), and a
  // narrower result's truncation extends back to lo.
  NodeId truncated = sr.vt == W ? get(lo) : conversion("trunc", W, sr.vt, l, get(lo));
  NodeId stored = hold(sr.vt, truncated, out, l);
  out.push_back(store(sr.vt, false, get(dst), load(sr.vt, false, stored, l), l));
  NodeId high_ok = op("eq", W, l, get(hi), sr.is_signed ? op("ashr", W, l, get(lo), k(63)) : k(0));
  NodeId back = load(sr.vt, false, stored, l);
  if (sr.vt != W) back = conversion(sr.is_signed ? "sext" : "zext", sr.vt, W, l, back);
  NodeId low_ok = op("eq", W, l, back, get(lo));
  NodeId fits = op("and", VType::I32, l, high_ok, low_ok);
  // The builtin's value is a _Bool (i8 holding 0 or 1).
  return seq(block(out, l), conversion("trunc", VType::I32, VType::I8, l, op("xor", VType::I32, l, fits, constant(VType::I32, 1, l))), l);
}

// The full 128-bit product of the unsigned i64 values in the temporaries
// `a` and `b`, from four 32 x 32 -> 64 partial products (Hacker's Delight
// 8-2): `hi` and `lo` are temporaries holding its halves. Shared by the
// overflow checks and __int128's multiply (int128.cpp).
void FunctionBuilder::multiply_64x64(NodeId a, NodeId b, std::vector<NodeId>& out, Loc l, NodeId& hi, NodeId& lo) {
  constexpr VType W = VType::I64;
  auto keep = [&](NodeId v) { return hold(W, v, out, l); };
  auto get = [&](NodeId var) { return load(W, false, var, l); };
  auto k = [&](int64_t v) { return constant(W, v, l); };
  auto low32 = [&](NodeId v) { return op("and", W, l, get(v), k(0xffffffff)); };
  auto high32 = [&](NodeId v) { return op("lshr", W, l, get(v), k(32)); };
  NodeId p00 = keep(op("mul", W, l, low32(a), low32(b)));
  NodeId p01 = keep(op("mul", W, l, low32(a), high32(b)));
  NodeId p10 = keep(op("mul", W, l, high32(a), low32(b)));
  NodeId p11 = keep(op("mul", W, l, high32(a), high32(b)));
  NodeId mid = keep(op("add", W, l, op("add", W, l, high32(p00), low32(p01)), low32(p10)));
  lo = keep(op("or", W, l, op("shl", W, l, get(mid), k(32)), low32(p00)));
  hi = keep(op("add", W, l, op("add", W, l, get(p11), high32(p01)), op("add", W, l, high32(p10), high32(mid))));
}

NodeId FunctionBuilder::query_builtin(const CallExpr* c, const std::string& name) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (name == "__builtin_constant_p") {
    // clang's answer where it is 1 (42, "hi", a constant expression); a
    // harmless operand is left for the optimizer (constant_p: 1 when it
    // folds after inlining, else 0); anything else is 0 (&global, x++, f()).
    Expr::EvalResult folded;
    if (c->EvaluateAsInt(folded, ctx_) && folded.Val.getInt().getBoolValue()) return constant(VType::I32, 1, l);
    // Not optimizing (-O0, or no -O given to clang): gcc's -O0 answer, 0, at
    // once, so that `if (__builtin_constant_p(x) ...)` folds away here.
    const Expr* arg = c->getNumArgs() == 1 ? c->getArg(0) : nullptr;
    if (!ctx_.getLangOpts().Optimize || !arg || arg->HasSideEffects(ctx_) || !harmless_constant_p_operand(arg, ctx_)) return constant(VType::I32, 0, l);
    return op("constant_p", VType::I32, l, rvalue(arg));
  }
  if (name == "__builtin_object_size" || name == "__builtin_dynamic_object_size") {
    Expr::EvalResult kind;
    if (!c->getArg(1)->EvaluateAsInt(kind, ctx_)) unsupported(where, "'" + name + "' with a non-constant type");
    int64_t unknown = (kind.Val.getInt().getExtValue() & 2) ? 0 : -1;
    return constant(types_.scalar(c->getType(), where).vt, unknown, l);
  }
  if (name == "__builtin_classify_type") {  // gcc's type class of the (unevaluated) operand
    Expr::EvalResult folded;
    if (!c->EvaluateAsInt(folded, ctx_)) unsupported(where, "'" + name + "' on this operand");
    // gcc's C front end promotes the operand first (the builtin is variadic),
    // so a _Bool is an integer (1), where clang answers boolean (4).
    constexpr int64_t kInteger = 1, kBoolean = 4;
    int64_t type_class = folded.Val.getInt().getExtValue();
    return constant(VType::I32, type_class == kBoolean ? kInteger : type_class, l);
  }
  if (name == "__builtin_assume") return constant(VType::I32, 0, l);
  if (name == "__builtin_assume_aligned") {
    std::vector<NodeId> effects;
    NodeId p = rvalue(c->getArg(0));
    for (unsigned i = 1; i < c->getNumArgs(); ++i)
      if (c->getArg(i)->HasSideEffects(ctx_)) effects.push_back(discard(c->getArg(i), false));
    return effects.empty() ? p : seq(statements(effects, l), p, l);
  }
  if (name == "__builtin_prefetch") {
    std::vector<NodeId> effects;
    for (const Expr* arg : c->arguments())
      if (arg->HasSideEffects(ctx_)) effects.push_back(discard(arg, false));
    return seq(statements(effects, l), constant(VType::I32, 0, l), l);
  }
  return kNone;
}

}  // namespace pl::c2ast
