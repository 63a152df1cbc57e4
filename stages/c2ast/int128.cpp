// int128.cpp - __int128 and unsigned __int128, as gcc has them on x86-64
// (issue 19, "The rest of C").
//
// The IR has no 128-bit value type, and needs none: an __int128 is lowered
// here to 64-bit operations on its two halves, with no change to the
// format. Types treats it as a 16-byte, 16-aligned aggregate
// (Types::is_aggregate), so everything aggregates already do it does the
// same way:
//   - its value (rvalue()) is the address of 16 bytes holding it, lo at +0
//     and hi at +8 (little-endian, the layout of memory); a variable lives
//     in a 16-byte slot, assignment and initialization are 16-byte copies;
//   - calls pass and return it by the aggregate ABI: flatten_scalars gives
//     two 64-bit INTEGER scalars, so common/ir/abi.h classifies it INTEGER,
//     INTEGER, two general registers (rdi:rsi ...; rax:rdx for a result), or
//     the stack, 16-aligned, when two registers are not left, exactly as gcc
//     (System V 3.2.3); through `...` and va_arg likewise;
//   - globals and statics are 16 bytes of data (data.cpp).
// Every operation reads its operands' halves into i64 temporaries and
// writes its result into a fresh 16-byte temporary (sonopt's scalar-replace
// turns those into registers at -O2):
//   + -      halves with the carry (lo < a.lo, unsigned) or borrow;
//   *        lo*lo's full 128-bit product (builtins.cpp's multiply_64x64:
//            four 32 x 32 -> 64 partial products) plus the cross terms
//            a.lo*b.hi + a.hi*b.lo into the high half;
//   & | ^ ~  half by half; unary - is 0 - x with the borrow;
//   << >>    the count taken mod 128 (C leaves larger ones undefined), never
//            a shift by 64 or more in the IR: with m = n & 63, the small
//            case (n < 64) moves the bits crossing the halves as
//            (lo >> 1) >> (63 - m), which is 0 for m = 0, and a mask of
//            -(n >> 6 & 1) picks the large case (one half moved by m into
//            the other) without a branch; >> is arithmetic or logical by
//            the type's signedness;
//   == !=    ((a.lo ^ b.lo) | (a.hi ^ b.hi)) against 0; < <= > >= compare
//            the high halves (signed or unsigned by the type) and on a tie
//            the low halves unsigned; > and <= swap the operands (both
//            were read in order into temporaries first);
//   / %      calls of libgcc's __divti3, __udivti3, __modti3, __umodti3,
//            as gcc makes them (pipe-run has them too);
//   truth    (lo | hi) != 0, for if, loops, &&, ||, !, ?: and _Bool;
//   conversions: from a narrower integer (and _Bool, enums, pointers) by
//            sign or zero extension into hi; to one by truncating lo; from
//            and to float and double by libgcc's __floattisf, __floattidf,
//            __floatuntisf, __floatuntidf, __fixsfti, __fixdfti,
//            __fixunssfti, __fixunsdfti, as gcc calls them;
//   compound assignment, in both directions (`x += i` on an __int128 x, and
//            `int i; i += big;` computed in __int128), and ++/--;
//   constants of any width from clang's APInt (both halves as constants).
// At -O2 the temporaries and the halves live in registers (split-copy and
// scalar-replace take them; a returned value is stored half by half through
// the result pointer, int128_store, since a copy to other memory would keep
// its temporary in memory); what memory traffic is left is the aggregate
// ABI's, in son-lower-x64: an __int128 parameter's registers are stored to a
// slot the body reads, a result goes through a slot into rax:rdx, as for a
// 16-byte struct.
// What is refused by name: `switch` on an __int128 (statements.cpp),
// __int128 bit-fields, and any scalar use the hooks here do not cover
// (Types::scalar stops with "128-bit integer type ... here" rather than
// treating the address as the value).
#include "c2ast.h"

namespace pl::c2ast {

using namespace clang;

namespace {
constexpr VType W = VType::I64;
}  // namespace

bool Types::is_int128(QualType t) {
  if (t.isNull()) return false;
  const auto* b = t->getAs<BuiltinType>();
  return b && (b->getKind() == BuiltinType::Int128 || b->getKind() == BuiltinType::UInt128);
}

FunctionBuilder::Halves FunctionBuilder::int128_halves(NodeId address, std::vector<NodeId>& out, Loc l) {
  NodeId second;
  if (duplicable(address)) {
    second = clone(address);
  } else {
    NodeId p = hold(VType::Ptr, address, out, l);
    address = load(VType::Ptr, false, p, l);
    second = load(VType::Ptr, false, p, l);
  }
  Halves h;
  h.lo = hold(W, load(W, false, address, l), out, l);
  h.hi = hold(W, load(W, false, offset(second, 8, l), l), out, l);
  return h;
}

NodeId FunctionBuilder::int128_temporary(NodeId lo, NodeId hi, std::vector<NodeId>& out, Loc l) {
  NodeId var = variable(".i128", 16, 16, l);
  out.push_back(store(W, false, var, lo, l));
  out.push_back(store(W, false, offset(var, 8, l), hi, l));
  return var;
}

NodeId FunctionBuilder::int128_value(NodeId lo, NodeId hi, std::vector<NodeId>& out, Loc l) {
  NodeId var = int128_temporary(lo, hi, out, l);
  return seq(block(out, l), var, l);
}

NodeId FunctionBuilder::int128_store(NodeId dst, NodeId value, Loc l) {
  std::vector<NodeId> out;
  Halves h = int128_halves(value, out, l);
  NodeId p = hold(VType::Ptr, dst, out, l);
  out.push_back(store(W, false, load(VType::Ptr, false, p, l), load(W, false, h.lo, l), l));
  out.push_back(store(W, false, offset(load(VType::Ptr, false, p, l), 8, l), load(W, false, h.hi, l), l));
  return block(out, l);
}

NodeId FunctionBuilder::int128_rvalue(const Expr* e) {
  Loc l = loc(e->getExprLoc());
  llvm::APSInt value;
  if (const auto* lit = dyn_cast<IntegerLiteral>(e)) {
    value = llvm::APSInt(lit->getValue(), !e->getType()->isSignedIntegerType());
  } else if (const auto* c = dyn_cast<ConstantExpr>(e); c && c->hasAPValueResult() && c->getAPValueResult().isInt()) {
    value = c->getAPValueResult().getInt();
  } else if (isa<ImplicitValueInitExpr>(e)) {
    value = llvm::APSInt(128, true);
  } else {
    return kNone;
  }
  llvm::APSInt v = value.extOrTrunc(128);
  std::vector<NodeId> out;
  return int128_value(constant(W, static_cast<int64_t>(v.extractBitsAsZExtValue(64, 0)), l),
                      constant(W, static_cast<int64_t>(v.extractBitsAsZExtValue(64, 64)), l), out, l);
}

NodeId FunctionBuilder::int128_library_call(const char* name, QualType result, const std::vector<QualType>& types,
                                            const std::vector<NodeId>& args, Loc l, SourceLocation where) {
  FunctionProtoType::ExtProtoInfo info;
  QualType function_type = ctx_.getFunctionType(result, types, info);
  InputList inputs{symaddr(module_.library_function(name, function_type, where), l)};
  std::vector<std::string> params;
  NodeId result_var = kNone;
  if (Types::is_aggregate(result)) {
    result_var = variable(".call", 16, 16, l);
    inputs.push_back(result_var);
    params.push_back(types_.result_pointer(result, where));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    params.push_back(types_.param_type(types[i], where));
    if (Types::is_aggregate(types[i]))  // the callee gets its own copy
      inputs.push_back(copy(16, 16, variable(".arg", 16, 16, l), args[i], l));
    else
      inputs.push_back(args[i]);
  }
  LiteralList literals{Literal::string(types_.result_type(result, where)),
                       Literal::string(param_list_string(params, false))};
  NodeId call = add(Op::AstCall, l, std::move(literals), std::move(inputs));
  return result_var == kNone ? call : seq(call, result_var, l);
}

// ---- conversions -------------------------------------------------------------------

NodeId FunctionBuilder::convert_type(NodeId v, QualType from, QualType to, Loc l, SourceLocation where) {
  if (Types::is_int128(from) || Types::is_int128(to)) return int128_convert(v, from, to, l, where);
  Scalar f = types_.scalar(from, where);
  if (to->isBooleanType() && !from->isBooleanType()) return to_bool(v, f.vt, l);
  return convert(v, f, types_.scalar(to, where), l);
}

NodeId FunctionBuilder::int128_convert(NodeId v, QualType from, QualType to, Loc l, SourceLocation where) {
  bool wide_from = Types::is_int128(from), wide_to = Types::is_int128(to);
  if (wide_from && wide_to) return v;  // the same 16 bytes
  if (wide_to) {
    bool to_signed = to->isSignedIntegerType();
    if (from->isRealFloatingType()) {
      bool is_double = types_.scalar(from, where).vt == VType::F64;
      std::string name = std::string(to_signed ? "__fix" : "__fixuns") + (is_double ? "dfti" : "sfti");
      return int128_library_call(name.c_str(), to, {from.getUnqualifiedType()}, {v}, l, where);
    }
    Scalar s = types_.scalar(from, where);
    std::vector<NodeId> out;
    NodeId lo = hold(W, convert(v, s, {W, s.is_signed}, l), out, l);
    NodeId hi = s.is_signed ? op("ashr", W, l, load(W, false, lo, l), constant(W, 63, l)) : constant(W, 0, l);
    return int128_value(load(W, false, lo, l), hi, out, l);
  }
  // From an __int128.
  if (to->isBooleanType()) return conversion("trunc", VType::I32, VType::I8, l, int128_truth(v, l));
  if (to->isRealFloatingType()) {
    bool is_double = types_.scalar(to, where).vt == VType::F64;
    std::string name = std::string(from->isSignedIntegerType() ? "__floatti" : "__floatunti") + (is_double ? "df" : "sf");
    return int128_library_call(name.c_str(), to.getUnqualifiedType(), {from.getUnqualifiedType()}, {v}, l, where);
  }
  Scalar s = types_.scalar(to, where);
  NodeId lo = load(W, false, v, l);  // the low half: truncation
  if (vtype_bits(s.vt) == 64) return lo;
  return conversion("trunc", W, s.vt, l, lo);
}

NodeId FunctionBuilder::int128_cast(const CastExpr* c, NodeId sub) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  QualType from = c->getSubExpr()->getType(), to = c->getType();
  switch (c->getCastKind()) {
    case CK_NoOp:
    case CK_BitCast: return sub;
    case CK_IntegralCast:
    case CK_IntegralToPointer:
    case CK_PointerToIntegral:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral: {
      NodeId v = int128_convert(sub, from, to, l, where);
      if (c->getCastKind() == CK_BooleanToSignedIntegral) {  // (a vector's true is -1; not in C)
        unsupported(where, "conversion '" + std::string(c->getCastKindName()) + "' of a 128-bit integer");
      }
      return v;
    }
    default: break;
  }
  unsupported(where, std::string("conversion '") + c->getCastKindName() + "' of a 128-bit integer");
}

// ---- operators -----------------------------------------------------------------------

NodeId FunctionBuilder::int128_truth(NodeId v, Loc l) {
  std::vector<NodeId> out;
  Halves h = int128_halves(v, out, l);
  NodeId any = op("or", W, l, load(W, false, h.lo, l), load(W, false, h.hi, l));
  return seq(block(out, l), op("ne", W, l, any, constant(W, 0, l)), l);
}

NodeId FunctionBuilder::int128_unary(const UnaryOperator* u) {
  Loc l = loc(u->getExprLoc());
  std::vector<NodeId> out;
  Halves x = int128_halves(rvalue(u->getSubExpr()), out, l);
  auto get = [&](NodeId var) { return load(W, false, var, l); };
  switch (u->getOpcode()) {
    case UO_Minus: {  // 0 - x: hi borrows when lo is not 0
      NodeId borrow = conversion("zext", VType::I32, W, l, op("ne", W, l, get(x.lo), constant(W, 0, l)));
      return int128_value(op("neg", W, l, get(x.lo)), op("sub", W, l, op("neg", W, l, get(x.hi)), borrow), out, l);
    }
    case UO_Not: return int128_value(op("not", W, l, get(x.lo)), op("not", W, l, get(x.hi)), out, l);
    case UO_LNot: {
      NodeId any = op("or", W, l, get(x.lo), get(x.hi));
      return seq(block(out, l), op("eq", W, l, any, constant(W, 0, l)), l);
    }
    default: break;
  }
  unsupported(u->getExprLoc(), std::string("operator '") + UnaryOperator::getOpcodeStr(u->getOpcode()).str() +
                                   "' on a 128-bit integer");
}

NodeId FunctionBuilder::int128_binary(const BinaryOperator* b, NodeId lhs) {
  SourceLocation where = b->getOperatorLoc();
  Loc l = loc(where);
  QualType lt = b->getLHS()->getType(), rt = b->getRHS()->getType();
  if (b->getOpcode() == BO_LAnd || b->getOpcode() == BO_LOr) {
    NodeId left = Types::is_int128(lt) ? int128_truth(lhs, l) : truth(lhs, types_.scalar(lt, where).vt, l);
    return add(b->getOpcode() == BO_LAnd ? Op::AstAnd : Op::AstOr, l, {}, {left, condition(b->getRHS())});
  }
  return int128_arithmetic(b->getOpcode(), lt, rt, lhs, rvalue(b->getRHS()), l, where);
}

NodeId FunctionBuilder::int128_arithmetic(BinaryOperatorKind opcode, QualType lt, QualType rt, NodeId a, NodeId b,
                                          Loc l, SourceLocation where) {
  // Pointer arithmetic with an __int128 index: the index's low 64 bits.
  if (lt->isPointerType() || rt->isPointerType()) {
    QualType index = ctx_.LongTy;
    if (lt->isPointerType()) return arithmetic(opcode, lt, index, a, int128_convert(b, rt, index, l, where), l, where);
    return arithmetic(opcode, index, rt, int128_convert(a, lt, index, l, where), b, l, where);
  }
  // A shift of a narrower value by an __int128 count: the count's low half.
  if ((opcode == BO_Shl || opcode == BO_Shr) && !Types::is_int128(lt))
    return arithmetic(opcode, lt, ctx_.LongTy, a, int128_convert(b, rt, ctx_.LongTy, l, where), l, where);
  bool is_signed = lt->isSignedIntegerType();
  std::vector<NodeId> out;
  auto get = [&](NodeId var) { return load(W, false, var, l); };
  auto k = [&](int64_t v) { return constant(W, v, l); };
  auto keep = [&](NodeId v) { return hold(W, v, out, l); };
  auto bit = [&](NodeId flag) { return conversion("zext", VType::I32, W, l, flag); };
  if (opcode == BO_Div || opcode == BO_Rem) {
    const char* name = opcode == BO_Div ? (is_signed ? "__divti3" : "__udivti3") : (is_signed ? "__modti3" : "__umodti3");
    QualType t = is_signed ? ctx_.Int128Ty : ctx_.UnsignedInt128Ty;
    return int128_library_call(name, t, {t, t}, {a, b}, l, where);
  }
  Halves x = int128_halves(a, out, l);
  if (opcode == BO_Shl || opcode == BO_Shr) {
    NodeId count;
    if (Types::is_int128(rt)) {
      count = load(W, false, b, l);
    } else {
      Scalar rs = types_.scalar(rt, where);
      count = convert(b, rs, {W, rs.is_signed}, l);
    }
    NodeId n = keep(op("and", W, l, count, k(127)));
    NodeId m = keep(op("and", W, l, get(n), k(63)));
    NodeId big = keep(op("neg", W, l, op("lshr", W, l, get(n), k(6))));  // all ones when n >= 64
    NodeId small = keep(op("not", W, l, get(big)));
    auto pick = [&](NodeId small_value, NodeId big_value) {
      return op("or", W, l, op("and", W, l, small_value, get(small)), op("and", W, l, big_value, get(big)));
    };
    NodeId back = keep(op("sub", W, l, k(63), get(m)));
    if (opcode == BO_Shl) {
      NodeId lo = keep(op("shl", W, l, get(x.lo), get(m)));
      NodeId carried = op("lshr", W, l, op("lshr", W, l, get(x.lo), k(1)), get(back));
      NodeId hi = op("or", W, l, op("shl", W, l, get(x.hi), get(m)), carried);
      return int128_value(op("and", W, l, get(lo), get(small)), pick(hi, get(lo)), out, l);
    }
    const char* right = is_signed ? "ashr" : "lshr";
    NodeId hi = keep(op(right, W, l, get(x.hi), get(m)));
    NodeId carried = op("shl", W, l, op("shl", W, l, get(x.hi), k(1)), get(back));
    NodeId lo = op("or", W, l, op("lshr", W, l, get(x.lo), get(m)), carried);
    NodeId fill = is_signed ? op("ashr", W, l, get(x.hi), k(63)) : k(0);
    return int128_value(pick(lo, get(hi)), pick(get(hi), fill), out, l);
  }
  Halves y = int128_halves(b, out, l);
  switch (opcode) {
    case BO_Add: {
      NodeId lo = keep(op("add", W, l, get(x.lo), get(y.lo)));
      NodeId carry = bit(op("ult", W, l, get(lo), get(x.lo)));
      return int128_value(get(lo), op("add", W, l, op("add", W, l, get(x.hi), get(y.hi)), carry), out, l);
    }
    case BO_Sub: {
      NodeId borrow = bit(op("ult", W, l, get(x.lo), get(y.lo)));
      return int128_value(op("sub", W, l, get(x.lo), get(y.lo)),
                          op("sub", W, l, op("sub", W, l, get(x.hi), get(y.hi)), borrow), out, l);
    }
    case BO_Mul: {
      NodeId hi, lo;
      multiply_64x64(x.lo, y.lo, out, l, hi, lo);
      NodeId cross = op("add", W, l, op("mul", W, l, get(x.lo), get(y.hi)), op("mul", W, l, get(x.hi), get(y.lo)));
      return int128_value(get(lo), op("add", W, l, get(hi), cross), out, l);
    }
    case BO_And:
    case BO_Or:
    case BO_Xor: {
      const char* name = opcode == BO_And ? "and" : opcode == BO_Or ? "or" : "xor";
      return int128_value(op(name, W, l, get(x.lo), get(y.lo)), op(name, W, l, get(x.hi), get(y.hi)), out, l);
    }
    case BO_EQ:
    case BO_NE: {
      NodeId diff = op("or", W, l, op("xor", W, l, get(x.lo), get(y.lo)), op("xor", W, l, get(x.hi), get(y.hi)));
      return seq(block(out, l), op(opcode == BO_EQ ? "eq" : "ne", W, l, diff, k(0)), l);
    }
    case BO_LT:
    case BO_GT:
    case BO_LE:
    case BO_GE: {
      // p < q on the held halves; > and <= swap the operands, <= and >= negate.
      bool swapped = opcode == BO_GT || opcode == BO_LE;
      const Halves& p = swapped ? y : x;
      const Halves& q = swapped ? x : y;
      NodeId high_less = op(is_signed ? "slt" : "ult", W, l, get(p.hi), get(q.hi));
      NodeId tie = op("and", VType::I32, l, op("eq", W, l, get(p.hi), get(q.hi)), op("ult", W, l, get(p.lo), get(q.lo)));
      NodeId less = op("or", VType::I32, l, high_less, tie);
      if (opcode == BO_LE || opcode == BO_GE) less = op("xor", VType::I32, l, less, constant(VType::I32, 1, l));
      return seq(block(out, l), less, l);
    }
    default: break;
  }
  unsupported(where, std::string("operator '") + BinaryOperator::getOpcodeStr(opcode).str() + "' on a 128-bit integer");
}

// ---- assignment operators ----------------------------------------------------------------

NodeId FunctionBuilder::int128_compound_assignment(const CompoundAssignOperator* e) {
  SourceLocation where = e->getOperatorLoc();
  Loc l = loc(where);
  const Expr* lhs = e->getLHS();
  QualType t = lhs->getType();
  bool wide = Types::is_int128(t);
  bool is_volatile = t.isVolatileQualified();
  QualType computation = e->getComputationLHSType();
  NodeId first = kNone;  // the right operand first when it has side effects (expressions.cpp)
  NodeId rhs = compound_right_operand(e->getRHS(), first, l);
  TwoUses at = address_twice(lhs, l);
  // The old value: an __int128's is its address (read first thing by the
  // operation).
  NodeId old = wide ? at.first : lvalue_load(lhs, scalar(lhs).vt, is_volatile, at.first, l);
  old = convert_type(old, t, computation, l, where);
  BinaryOperatorKind opcode = BinaryOperator::getOpForCompoundAssignment(e->getOpcode());
  NodeId value = arithmetic(opcode, computation, e->getRHS()->getType(), old, rhs, l, where);
  value = convert_type(value, e->getComputationResultType(), t, l, where);
  if (wide) return seq(first, seq(at.setup, copy(16, 16, at.second, value, l), l), l);
  return seq(first, seq(at.setup, lvalue_store(lhs, scalar(lhs).vt, is_volatile, at.second, value, l), l), l);
}

NodeId FunctionBuilder::int128_increment(const UnaryOperator* u, bool value_used) {
  Loc l = loc(u->getOperatorLoc());
  TwoUses at = address_twice(u->getSubExpr(), l);
  std::vector<NodeId> out;
  if (at.setup != kNone) out.push_back(at.setup);
  Halves x = int128_halves(at.first, out, l);
  auto get = [&](NodeId var) { return load(W, false, var, l); };
  NodeId zero = constant(W, 0, l), one = constant(W, 1, l);
  NodeId lo, hi;
  if (u->isIncrementOp()) {  // hi carries when the new lo is 0
    lo = hold(W, op("add", W, l, get(x.lo), one), out, l);
    hi = op("add", W, l, get(x.hi), conversion("zext", VType::I32, W, l, op("eq", W, l, get(lo), zero)));
  } else {  // hi borrows when the old lo is 0
    lo = hold(W, op("sub", W, l, get(x.lo), one), out, l);
    hi = op("sub", W, l, get(x.hi), conversion("zext", VType::I32, W, l, op("eq", W, l, get(x.lo), zero)));
  }
  NodeId updated = int128_temporary(get(lo), hi, out, l);
  NodeId result = updated;
  if (u->isPostfix() && value_used) result = int128_temporary(get(x.lo), get(x.hi), out, l);
  out.push_back(copy(16, 16, at.second, updated, l));
  return seq(block(out, l), result, l);
}

}  // namespace pl::c2ast
