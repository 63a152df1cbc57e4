// expressions.cpp - C expressions -> ast-level expression trees.
//
// Three views of an expression: rvalue() is its value (for a struct or
// union, the address of its storage), address() the address an lvalue
// designates, discard() its evaluation for effects only. Every implicit
// conversion clang inserted (ImplicitCastExpr) becomes explicit: the
// integer promotions and usual arithmetic conversions as sext/zext/trunc,
// conversions to _Bool as `ne` then `trunc`, lvalue conversions as loads
// (`ast:load.volatile` for volatile lvalues), array and function decay as
// the identity on their address. Conversions between types of one width
// (int <-> unsigned, long <-> pointer) are the identity, as FORMAT.md G says;
// a signed integer converted to a wider pointer is sign-extended (gcc's
// choice for this implementation-defined conversion).
//
// Operations are picked by the C types: sdiv/udiv, srem/urem, ashr/lshr and
// slt/ult by signedness (pointers compare unsigned). `a > b` and `a >= b`
// have no opcode of their own: with a constant right operand the operands
// swap (`b < a`); otherwise the complement is negated (`(a <= b) == 0`), so
// operands keep their left-to-right order. Pointer arithmetic is scaled by
// the element size (1 for void and functions, as GNU C) in i64, and `p - q`
// divides the byte difference by it.
//
// Assignment operators evaluate the lvalue's address once: when its tree
// holds nothing but variables, symbols, constants, address arithmetic and
// reads of pointers written only at entry (a struct parameter's address) it
// is used twice (nothing in between can change it); otherwise it goes
// through a pointer temporary (FORMAT.md G, "Assignment operators"). A
// postfix ++/-- whose value is used keeps the old value in a temporary;
// one whose value is dropped is the prefix form.
//
// An expression evaluated only for its effects (discard) at statement
// level maps onto statements: a comma is a block, a void `?:` an ast:if,
// and a GNU statement expression (glibc's assert() is one in gnu11) its
// block; so labels and cases inside them stay reachable through statement
// inputs only (FORMAT.md G, "Jumps"). A statement expression whose value
// is used is unsupported. An lvalue read for nothing is not read unless it
// is volatile.
//
// Deep left-nested operator chains (`a+a+...+a`, `x, y, z, ...`) are walked
// with an explicit stack (left_spine): clang builds them iteratively, so
// their depth is unbounded.
#include "c2ast.h"

#include <clang/Basic/Builtins.h>

#include <algorithm>
#include <stdexcept>

namespace pl::c2ast {

using namespace clang;

Scalar FunctionBuilder::scalar(const Expr* e) const { return types_.scalar(e->getType(), e->getExprLoc()); }

NodeId FunctionBuilder::rvalue(const Expr* e) {
  return deep([&] { return rvalue_node(e); });
}

NodeId FunctionBuilder::address(const Expr* e) {
  return deep([&] { return address_node(e); });
}

NodeId FunctionBuilder::object(const Expr* e) { return e->isGLValue() ? address(e) : rvalue(e); }

NodeId FunctionBuilder::lvalue_conversion(const Expr* lvalue) {
  QualType t = lvalue->getType();
  if (t->isAtomicType()) return atomic_object_load(lvalue);  // atomics.cpp
  if (Types::is_aggregate(t) || t->isArrayType() || t->isFunctionType()) return address(lvalue);
  Scalar s = scalar(lvalue);
  NodeId a = address(lvalue);
  return lvalue_load(lvalue, s.vt, t.isVolatileQualified(), a, loc(lvalue->getExprLoc()));
}

NodeId FunctionBuilder::integer_constant(const Expr* e) {
  if (const auto* trait = dyn_cast<UnaryExprOrTypeTraitExpr>(e)) {
    QualType arg = trait->isArgumentType() ? trait->getArgumentType() : trait->getArgumentExpr()->getType();
    types_.check(arg, e->getExprLoc());
    if (trait->getKind() == UETT_SizeOf && is_vla_type(ctx_, arg)) return vla_sizeof(trait);
  }
  Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ctx_))
    unsupported(e->getExprLoc(), std::string("expression '") + e->getStmtClassName() + "'");
  return constant(scalar(e), result.Val.getInt(), loc(e->getExprLoc()));
}

NodeId FunctionBuilder::rvalue_node(const Expr* e) {
  SourceLocation where = e->getExprLoc();
  types_.check(e->getType(), where);
  if (e->isGLValue()) return lvalue_conversion(e);
  if (NodeId n = complex_expression(e); n != kNone) return n;  // complex.cpp
  if (NodeId n = vector_expression(e); n != kNone) return n;   // vectors.cpp
  if (Types::is_int128(e->getType()))  // int128.cpp
    if (NodeId n = int128_rvalue(e); n != kNone) return n;
  Loc l = loc(where);
  if (const auto* lit = dyn_cast<IntegerLiteral>(e)) {
    Scalar s = scalar(e);
    return constant(s, llvm::APSInt(lit->getValue(), !s.is_signed), l);
  }
  if (const auto* lit = dyn_cast<FloatingLiteral>(e)) return float_constant(scalar(e).vt, lit->getValue(), l);
  if (const auto* p = dyn_cast<ParenExpr>(e)) return rvalue(p->getSubExpr());
  // In C a function designator is not an lvalue; its value is its address.
  if (const auto* d = dyn_cast<DeclRefExpr>(e); d && isa<FunctionDecl>(d->getDecl())) return declaration_address(d);
  if (const auto* c = dyn_cast<ExplicitCastExpr>(e); c && c->getType()->isVariablyModifiedType()) {
    std::vector<NodeId> sizes;  // `(int (*)[n]) p` evaluates n (vla.cpp)
    evaluate_vla_sizes(c->getTypeAsWritten(), sizes, where);
    if (!sizes.empty()) {
      NodeId before = statements(sizes, l);
      return seq(before, value_cast(c, rvalue(c->getSubExpr())), l);
    }
  }
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    const Expr* sub = c->getSubExpr();
    switch (c->getCastKind()) {
      case CK_LValueToRValue: return lvalue_conversion(sub);
      case CK_ToUnion: return union_cast(c);
      case CK_ArrayToPointerDecay:
      case CK_FunctionToPointerDecay: return object(sub);
      case CK_NullToPointer: return constant(VType::Ptr, 0, l);  // an integer constant: no effects
      case CK_ToVoid: {
        NodeId effect = discard(sub, false);
        return effect == kNone ? constant(VType::I32, 0, l) : effect;
      }
      case CK_FloatingToIntegral:
        if (std::optional<NodeId> k = saturated_conversion(c, l)) return *k;
        return value_cast(c, rvalue(sub));
      default: return value_cast(c, rvalue(sub));
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return unary(u);
  if (const auto* c = dyn_cast<CompoundAssignOperator>(e)) return compound_assignment(c);
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_Assign) return assignment(b);
    std::optional<uint32_t> expected = expected_comparison(b);  // expect.cpp
    return expect_value(left_spine(b), expected, loc(b->getOperatorLoc()));
  }
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) return conditional(c);
  if (const auto* c = dyn_cast<CallExpr>(e)) return call(c);
  if (const auto* m = dyn_cast<MemberExpr>(e)) {  // a member of a struct value: `f().x`
    NodeId a = member(m);
    QualType t = m->getType();
    if (Types::is_aggregate(t) || t->isArrayType()) return a;
    return lvalue_load(m, scalar(m).vt, t.isVolatileQualified(), a, l);
  }
  if (const auto* g = dyn_cast<GenericSelectionExpr>(e)) return rvalue(g->getResultExpr());
  if (const auto* c = dyn_cast<ChooseExpr>(e)) return rvalue(c->getChosenSubExpr());
  if (const auto* c = dyn_cast<ConstantExpr>(e)) {
    if (c->hasAPValueResult() && c->getAPValueResult().isInt())
      return constant(scalar(e), c->getAPValueResult().getInt(), l);
    if (c->hasAPValueResult() && c->getAPValueResult().isFloat())
      return float_constant(scalar(e).vt, c->getAPValueResult().getFloat(), l);
    return rvalue(c->getSubExpr());
  }
  if (isa<ImplicitValueInitExpr>(e)) {
    Scalar s = scalar(e);
    if (s.vt == VType::F80) return f80_constant(0.0L, l);
    if (is_float(s.vt)) return float_constant(s.vt, 0.0, l);
    return constant(s, llvm::APSInt(64, true), l);
  }
  if (const auto* s = dyn_cast<StmtExpr>(e)) return statement_expression(s);
  if (const auto* c = dyn_cast<BinaryConditionalOperator>(e)) return omitted_middle(c);
  if (const auto* v = dyn_cast<VAArgExpr>(e)) return va_arg_expr(v);
  if (const auto* a = dyn_cast<AddrLabelExpr>(e)) return label_address(a);
  if (const auto* a = dyn_cast<AtomicExpr>(e)) return atomic_expr(a);
  if (e->getType()->isIntegralOrEnumerationType()) return integer_constant(e);
  unsupported(where, std::string("expression '") + e->getStmtClassName() + "'");
}

NodeId FunctionBuilder::value_cast(const CastExpr* c, NodeId sub) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (Types::is_int128(c->getType()) || Types::is_int128(c->getSubExpr()->getType())) return int128_cast(c, sub);
  Scalar from = scalar(c->getSubExpr());
  switch (c->getCastKind()) {
    case CK_NoOp:
    case CK_AtomicToNonAtomic:
    case CK_NonAtomicToAtomic:
    case CK_BitCast: return sub;
    case CK_IntegralCast:
    case CK_IntegralToPointer:
    case CK_PointerToIntegral: return convert(sub, from, scalar(c), l);
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingCast: return convert(sub, from, scalar(c), l);
    case CK_IntegralToBoolean:
    case CK_FloatingToBoolean:
    case CK_PointerToBoolean: return to_bool(sub, from.vt, l);
    case CK_ToUnion: unsupported(where, "cast to a union type");
    case CK_BuiltinFnToFnPtr: unsupported(where, "address of a builtin function");
    default: break;
  }
  types_.check(c->getSubExpr()->getType(), where);
  unsupported(where, std::string("conversion '") + c->getCastKindName() + "'");
}

// gcc's front end folds the conversion of a floating constant outside the
// integer type's range to the nearest bound, and a NaN to 0
// (fold_convert_const_int_from_real; c-torture 20031003-1 expects
// `(int)2147483648.0f` to be INT_MAX), at every level. The conversion is
// undefined in C, and the machine's cvttss2si gives INT_MIN instead: this
// answers as gcc's build does for a constant operand only (an operand
// known only after optimization converts as the machine does, as clang's).
// An operand in range converts as usual.
std::optional<NodeId> FunctionBuilder::saturated_conversion(const CastExpr* c, Loc l) {
  Expr::EvalResult r;
  if (!c->getSubExpr()->EvaluateAsRValue(r, ctx_) || !r.Val.isFloat()) return std::nullopt;
  const llvm::APFloat& f = r.Val.getFloat();
  Scalar to = scalar(c);
  const unsigned bits = vtype_bits(to.vt);
  if (bits < 8 || bits > 64) return std::nullopt;
  llvm::APSInt in_range(bits, !to.is_signed);
  bool exact = false;
  if (!(f.convertToInteger(in_range, llvm::APFloat::rmTowardZero, &exact) & llvm::APFloat::opInvalidOp))
    return std::nullopt;
  llvm::APSInt bound = f.isNaN() ? llvm::APSInt(bits, !to.is_signed)
                       : f.isNegative() ? llvm::APSInt::getMinValue(bits, !to.is_signed)
                                        : llvm::APSInt::getMaxValue(bits, !to.is_signed);
  return constant(to, bound, l);
}

NodeId FunctionBuilder::convert(NodeId v, Scalar from, Scalar to, Loc l) {
  if (from.vt == VType::F80 || to.vt == VType::F80) return f80_convert(v, from, to, l);
  if (is_float(from.vt) || is_float(to.vt)) return float_convert(v, from, to, l);
  unsigned from_bits = vtype_bits(from.vt), to_bits = vtype_bits(to.vt);
  if (from_bits == to_bits) return v;
  if (from_bits < to_bits) return conversion(from.is_signed ? "sext" : "zext", from.vt, to.vt, l, v);
  return conversion("trunc", from.vt, to.vt, l, v);
}

NodeId FunctionBuilder::to_bool(NodeId v, VType from, Loc l) {
  NodeId ne = is_float(from) || from == VType::F80 ? truth(v, from, l) : op("ne", from, l, v, constant(from, 0, l));
  return conversion("trunc", VType::I32, VType::I8, l, ne);
}

NodeId FunctionBuilder::is_zero(NodeId v, VType t, Loc l) {
  if (t == VType::F80) return f80_compare("foeq", v, f80_constant(0.0L, l), l);
  if (is_float(t)) return op("foeq", t, l, v, float_constant(t, 0.0, l));  // !x: false for a NaN
  return op("eq", t, l, v, constant(t, 0, l));
}

NodeId FunctionBuilder::unary(const UnaryOperator* u) {
  const Expr* sub = u->getSubExpr();
  Loc l = loc(u->getExprLoc());
  if (Types::is_int128(sub->getType()) &&
      (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Not || u->getOpcode() == UO_LNot))
    return int128_unary(u);
  switch (u->getOpcode()) {
    case UO_AddrOf:
      // gcc's error (storage_order.cpp): the order would be lost.
      if (reversed_scalar(sub)) throw CError{u->getOperatorLoc(), "cannot take address of scalar with reverse storage order"};
      return address(sub);
    case UO_Deref: return rvalue(sub);  // `*f` of a function pointer: a function designator
    case UO_Plus:
    case UO_Extension: return rvalue(sub);
    case UO_Minus: {
      VType t = scalar(u).vt;
      if (t == VType::F80) return f80_unary("neg", rvalue(sub), l);
      return wide_bitfield_wrap(u, op(is_float(t) ? "fneg" : "neg", t, l, rvalue(sub)));
    }
    case UO_Not: return wide_bitfield_wrap(u, op("not", scalar(u).vt, l, rvalue(sub)));
    case UO_LNot: {
      VType t = scalar(sub).vt;
      return is_zero(rvalue(sub), t, l);
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: return increment(u, true);
    case UO_Real:
    case UO_Imag: unsupported(u->getExprLoc(), "__real__ and __imag__");
    default: break;
  }
  unsupported(u->getExprLoc(), std::string("operator '") + UnaryOperator::getOpcodeStr(u->getOpcode()).str() + "'");
}

namespace {

// Binary operators whose left operand is a value that left_spine() can
// compute first: everything but assignments.
bool chains(const Expr* e) {
  const auto* b = dyn_cast<BinaryOperator>(e);
  if (b && b->getOpcode() != BO_Comma &&
      (b->getLHS()->getType()->isAnyComplexType() || b->getRHS()->getType()->isAnyComplexType()))
    return false;  // complex.cpp
  return b && !b->isAssignmentOp() && !isa<CompoundAssignOperator>(b) && b->isPRValue();
}

// Value conversions a left spine may go through (`(c + 1) + 1L`).
bool spine_cast(const Expr* e) {
  const auto* c = dyn_cast<ImplicitCastExpr>(e);
  if (!c || !c->getSubExpr()->isPRValue()) return false;
  switch (c->getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_BitCast: return true;
    default: return false;
  }
}

}  // namespace

NodeId FunctionBuilder::left_spine(const Expr* e) {
  // Walk down the left operands, then build back up: no recursion on the
  // left, however long the chain.
  std::vector<const Expr*> spine;
  const Expr* leaf = e;
  bool dropped = false;  // the leaf's value is dropped (left of a comma)
  for (;;) {
    if (chains(leaf)) {
      const auto* b = cast<BinaryOperator>(leaf);
      spine.push_back(b);
      dropped = b->getOpcode() == BO_Comma;
      leaf = b->getLHS();
    } else if (!spine.empty() && !dropped && (isa<ParenExpr>(leaf) || spine_cast(leaf))) {
      spine.push_back(leaf);
      leaf = isa<ParenExpr>(leaf) ? cast<ParenExpr>(leaf)->getSubExpr() : cast<ImplicitCastExpr>(leaf)->getSubExpr();
    } else {
      break;
    }
  }
  NodeId value = dropped ? discard(leaf, false) : rvalue(leaf);
  for (size_t i = spine.size(); i-- > 0;) {
    const Expr* step = spine[i];
    if (const auto* b = dyn_cast<BinaryOperator>(step)) {
      value = binary(b, value);
    } else if (const auto* c = dyn_cast<ImplicitCastExpr>(step)) {
      types_.check(c->getType(), c->getExprLoc());
      value = value_cast(c, value);
    }
  }
  return value;
}

NodeId FunctionBuilder::binary(const BinaryOperator* b, NodeId lhs) {
  SourceLocation where = b->getOperatorLoc();
  Loc l = loc(where);
  const Expr* right = b->getRHS();
  if (b->getOpcode() != BO_Comma &&
      (Types::is_int128(b->getLHS()->getType()) || Types::is_int128(right->getType())))
    return int128_binary(b, lhs);
  switch (b->getOpcode()) {
    case BO_Comma: {
      NodeId rhs = right->getType()->isVoidType() ? discard(right, false) : rvalue(right);
      if (rhs == kNone) rhs = constant(VType::I32, 0, l);
      if (lhs == kNone) return rhs;
      return seq(lhs, rhs, l);
    }
    case BO_LAnd:
    case BO_LOr: {
      NodeId left = truth(lhs, types_.scalar(b->getLHS()->getType(), where).vt, l);
      return add(b->getOpcode() == BO_LAnd ? Op::AstAnd : Op::AstOr, l, {}, {left, condition(right)});
    }
    default: break;
  }
  QualType lt = b->getLHS()->getType(), rt = right->getType();
  // `a > b` with a constant b swaps instead of negating: no order to keep.
  bool swap_ok = (b->getOpcode() == BO_GT || b->getOpcode() == BO_GE) && !lt->isRealFloatingType() &&
                 right->isIntegerConstantExpr(ctx_);
  NodeId rhs = rvalue(right);
  if (swap_ok) {
    Scalar t = types_.scalar(lt, where);
    const char* name = b->getOpcode() == BO_GT ? (t.is_signed ? "slt" : "ult") : (t.is_signed ? "sle" : "ule");
    return op(name, t.vt, l, rhs, lhs);
  }
  return wide_bitfield_wrap(b, arithmetic(b->getOpcode(), lt, rt, lhs, rhs, l, where));
}

NodeId FunctionBuilder::pointer_offset(NodeId index, Scalar index_type, uint64_t element_size, Loc l) {
  NodeId wide = convert(index, index_type, {VType::I64, index_type.is_signed}, l);
  if (element_size == 1) return wide;
  return op("mul", VType::I64, l, wide, constant(VType::I64, static_cast<int64_t>(element_size), l));
}

// `a OP b` on values of the C types `lt` and `rt` (after clang's
// conversions: both the same arithmetic type, or a pointer and an integer,
// or two pointers).
NodeId FunctionBuilder::arithmetic(BinaryOperatorKind opcode, QualType lt, QualType rt, NodeId a, NodeId b, Loc l,
                                   SourceLocation where) {
  if (Types::is_int128(lt) || Types::is_int128(rt)) return int128_arithmetic(opcode, lt, rt, a, b, l, where);
  Scalar t = types_.scalar(lt, where);
  Scalar rs = types_.scalar(rt, where);
  if (is_float(t.vt)) return float_arithmetic(opcode, t.vt, a, b, l, where);
  if (t.vt == VType::F80) return f80_arithmetic(opcode, a, b, l, where);
  bool ptr_lhs = lt->isPointerType(), ptr_rhs = rt->isPointerType();
  if ((opcode == BO_Add || opcode == BO_Sub) &&
      ((ptr_lhs && points_to_vla(lt)) || (ptr_rhs && points_to_vla(rt)))) {  // vla.cpp
    NodeId size = pointee_size_node(ptr_lhs ? lt : rt, l, where);
    if (opcode == BO_Sub && ptr_lhs && ptr_rhs) return op("sdiv", VType::I64, l, op("sub", VType::I64, l, a, b), size);
    Scalar index_type = ptr_lhs ? rs : t;
    NodeId index = convert(ptr_lhs ? b : a, index_type, {VType::I64, index_type.is_signed}, l);
    NodeId scaled = op("mul", VType::I64, l, index, size);
    return ptr_lhs ? op(opcode == BO_Add ? "add" : "sub", VType::Ptr, l, a, scaled) : op("add", VType::Ptr, l, scaled, b);
  }
  if (opcode == BO_Add && ptr_lhs)
    return op("add", VType::Ptr, l, a, pointer_offset(b, rs, types_.pointee_size(lt, where), l));
  if (opcode == BO_Add && ptr_rhs)
    return op("add", VType::Ptr, l, pointer_offset(a, t, types_.pointee_size(rt, where), l), b);
  if (opcode == BO_Sub && ptr_lhs && ptr_rhs) {
    uint64_t size = types_.pointee_size(lt, where);
    NodeId bytes = op("sub", VType::I64, l, a, b);
    if (size == 1) return bytes;
    return op("sdiv", VType::I64, l, bytes, constant(VType::I64, static_cast<int64_t>(size), l));
  }
  if (opcode == BO_Sub && ptr_lhs)
    return op("sub", VType::Ptr, l, a, pointer_offset(b, rs, types_.pointee_size(lt, where), l));
  switch (opcode) {
    case BO_Add: return op("add", t.vt, l, a, b);
    case BO_Sub: return op("sub", t.vt, l, a, b);
    case BO_Mul: return op("mul", t.vt, l, a, b);
    case BO_Div: return op(t.is_signed ? "sdiv" : "udiv", t.vt, l, a, b);
    case BO_Rem: return op(t.is_signed ? "srem" : "urem", t.vt, l, a, b);
    case BO_And: return op("and", t.vt, l, a, b);
    case BO_Or: return op("or", t.vt, l, a, b);
    case BO_Xor: return op("xor", t.vt, l, a, b);
    case BO_Shl: return op("shl", t.vt, l, a, convert(b, rs, t, l));
    case BO_Shr: return op(t.is_signed ? "ashr" : "lshr", t.vt, l, a, convert(b, rs, t, l));
    case BO_EQ: return op("eq", t.vt, l, a, b);
    case BO_NE: return op("ne", t.vt, l, a, b);
    case BO_LT: return op(t.is_signed ? "slt" : "ult", t.vt, l, a, b);
    case BO_LE: return op(t.is_signed ? "sle" : "ule", t.vt, l, a, b);
    case BO_GT: return is_zero(op(t.is_signed ? "sle" : "ule", t.vt, l, a, b), VType::I32, l);
    case BO_GE: return is_zero(op(t.is_signed ? "slt" : "ult", t.vt, l, a, b), VType::I32, l);
    default: break;
  }
  unsupported(where, std::string("operator '") + BinaryOperator::getOpcodeStr(opcode).str() + "'");
}

NodeId FunctionBuilder::assignment(const BinaryOperator* b) {
  const Expr* lhs = b->getLHS();
  QualType t = lhs->getType();
  Loc l = loc(b->getOperatorLoc());
  if (t->isAtomicType()) return atomic_object_store(b);  // atomics.cpp
  NodeId dst = address(lhs);
  if (Types::is_aggregate(t)) {
    SourceLocation where = b->getOperatorLoc();
    return copy(types_.size(t, where), types_.align(t), dst, object(b->getRHS()), l);
  }
  Scalar s = scalar(lhs);
  return lvalue_store(lhs, s.vt, t.isVolatileQualified(), dst, rvalue(b->getRHS()), l);
}

// ---- evaluating an lvalue's address once for two uses -----------------------------

bool FunctionBuilder::duplicable(NodeId root) const {
  constexpr size_t kMaxNodes = 8;
  std::vector<NodeId> stack{root};
  size_t seen = 0;
  while (!stack.empty()) {
    const Node& n = fn_.nodes[stack.back()];
    stack.pop_back();
    if (++seen > kMaxNodes) return false;
    switch (n.op) {
      case Op::AstVar:
      case Op::AstSymAddr:
      case Op::AstTlsAddr:
      case Op::AstConst: break;
      case Op::AstLoad:
        if (!entry_only_.count(n.inputs[0])) return false;
        break;
      case Op::AstOp: {
        std::string_view name = n.literals[0].as_string();
        if (name != "add" && name != "sub" && name != "mul") return false;
        for (NodeId in : n.inputs) stack.push_back(in);
        break;
      }
      default: return false;
    }
  }
  return true;
}

NodeId FunctionBuilder::clone(NodeId root) {
  // Only called on duplicable() trees: at most 8 nodes deep.
  if (fn_.nodes[root].op == Op::AstVar) return root;  // a declaration, shared by its uses
  Node n = fn_.nodes[root];
  for (NodeId& in : n.inputs) in = clone(in);
  fn_.nodes.push_back(std::move(n));
  return static_cast<NodeId>(fn_.nodes.size() - 1);
}

FunctionBuilder::TwoUses FunctionBuilder::address_twice(const Expr* lvalue, Loc l) {
  NodeId a = address(lvalue);
  if (duplicable(a)) return {kNone, a, clone(a)};
  NodeId temp = variable(".addr", 8, 8, l);
  NodeId setup = store(VType::Ptr, false, temp, a, l);
  return {setup, load(VType::Ptr, false, temp, l), load(VType::Ptr, false, temp, l)};
}

NodeId FunctionBuilder::compound_assignment(const CompoundAssignOperator* e) {
  SourceLocation where = e->getOperatorLoc();
  Loc l = loc(where);
  const Expr* lhs = e->getLHS();
  QualType t = lhs->getType();
  if (t->isAtomicType())  // atomics.cpp
    return atomic_object_update(lhs, BinaryOperator::getOpForCompoundAssignment(e->getOpcode()), e->getRHS(),
                                e->getComputationLHSType(), e->getComputationResultType(), false, where);
  if (Types::is_int128(t) || Types::is_int128(e->getComputationLHSType())) return int128_compound_assignment(e);
  Scalar s = scalar(lhs);
  if (s.vt == VType::F80) return f80_compound_assignment(e);
  bool is_volatile = t.isVolatileQualified();
  QualType computation = e->getComputationLHSType();
  Scalar cs = types_.scalar(computation, where);
  Scalar result = types_.scalar(e->getComputationResultType(), where);

  NodeId first = kNone;
  NodeId rhs = compound_right_operand(e->getRHS(), first, l);
  TwoUses at = address_twice(lhs, l);
  NodeId old = convert(lvalue_load(lhs, s.vt, is_volatile, at.first, l), s, cs, l);
  BinaryOperatorKind opcode = BinaryOperator::getOpForCompoundAssignment(e->getOpcode());
  NodeId value = arithmetic(opcode, computation, e->getRHS()->getType(), old, rhs, l, where);
  value = t->isBooleanType() ? to_bool(value, result.vt, l) : convert(value, result, s, l);
  return seq(first, seq(at.setup, lvalue_store(lhs, s.vt, is_volatile, at.second, value, l), l), l);
}

// C leaves the order of `a op= b`'s operands unspecified; gcc and clang both
// evaluate b before a's address and old value (clang's CodeGen emits the
// right operand first in every compound assignment, scalar and complex), so
// `x[0] |= f()` where f changes x[0] reads x[0] after the call (c-torture
// pr58943). A right operand with side effects (a call, an assignment, a
// volatile read) is therefore evaluated first, into a temporary: its value,
// or for an __int128 or long double the address of the object holding it.
// One without side effects is evaluated in place: its order cannot show.
NodeId FunctionBuilder::compound_right_operand(const Expr* rhs, NodeId& setup, Loc l) {
  setup = kNone;
  if (!rhs->HasSideEffects(ctx_)) return rvalue(rhs);
  QualType t = rhs->getType();
  VType vt = Types::is_int128(t) ? VType::Ptr : scalar(rhs).vt;
  if (vt == VType::F80) vt = VType::Ptr;
  Reused r = reuse(rvalue(rhs), vt, l);
  setup = r.first;
  return again(r, l);
}

NodeId FunctionBuilder::increment(const UnaryOperator* u, bool value_used) {
  SourceLocation where = u->getOperatorLoc();
  Loc l = loc(where);
  const Expr* lhs = u->getSubExpr();
  QualType t = lhs->getType();
  if (t->isAtomicType()) {  // atomics.cpp
    QualType v = t->castAs<AtomicType>()->getValueType();
    return atomic_object_update(lhs, u->isIncrementOp() ? BO_Add : BO_Sub, nullptr,
                                v->isBooleanType() ? ctx_.IntTy : v, v,
                                u->isPostfix() && value_used, where);
  }
  if (Types::is_int128(t)) return int128_increment(u, value_used);
  Scalar s = scalar(lhs);
  if (s.vt == VType::F80) return f80_increment(u, value_used);
  bool is_volatile = t.isVolatileQualified();
  bool up = u->isIncrementOp();
  bool postfix = u->isPostfix() && value_used;
  if (t->isAnyComplexType()) return complex_increment(u, value_used);

  TwoUses at = address_twice(lhs, l);
  NodeId old = lvalue_load(lhs, s.vt, is_volatile, at.first, l);
  NodeId saved = kNone;
  if (postfix) {
    saved = variable(".old", vtype_bits(s.vt) / 8, vtype_bits(s.vt) / 8, l);
    old = store(s.vt, false, saved, old, l);  // its value is the old value
  }
  NodeId value;
  if (t->isBooleanType()) {
    // ++b sets it to 1; --b flips it (b - 1 is non-zero exactly when b is 0).
    value = up ? seq(old, constant(VType::I8, 1, l), l)
               : conversion("trunc", VType::I32, VType::I8, l, is_zero(old, VType::I8, l));
  } else if (t->isPointerType()) {
    value = op(up ? "add" : "sub", VType::Ptr, l, old, pointee_size_node(t, l, where));
  } else if (is_float(s.vt)) {
    value = op(up ? "fadd" : "fsub", s.vt, l, old, float_constant(s.vt, 1.0, l));
  } else {
    value = op(up ? "add" : "sub", s.vt, l, old, constant(s.vt, 1, l));
  }
  NodeId result = lvalue_store(lhs, s.vt, is_volatile, at.second, value, l);
  if (postfix) result = seq(result, load(s.vt, false, saved, l), l);
  return seq(at.setup, result, l);
}

// ---- ?:, calls, members, names -------------------------------------------------------

NodeId FunctionBuilder::conditional(const ConditionalOperator* c) {
  Loc l = loc(c->getQuestionLoc());
  QualType t = c->getType();
  NodeId cond = condition(c->getCond());
  NodeId a, b;
  std::string r;
  if (t->isVoidType()) {
    r = "void";
    a = discard(c->getTrueExpr(), false);
    b = discard(c->getFalseExpr(), false);
    if (a == kNone) a = constant(VType::I32, 0, l);
    if (b == kNone) b = constant(VType::I32, 0, l);
  } else if (Types::is_aggregate(t)) {
    r = "ptr";
    a = object(c->getTrueExpr());
    b = object(c->getFalseExpr());
  } else {
    r = vtype_name(scalar(c).vt);
    a = rvalue(c->getTrueExpr());
    b = rvalue(c->getFalseExpr());
  }
  return add(Op::AstCond, l, {Literal::string(r)}, {cond, a, b});
}

NodeId FunctionBuilder::call(const CallExpr* c) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (const FunctionDecl* callee = c->getDirectCallee()) {
    // A builtin goes by its family in builtins.cpp's table, the table
    // __has_builtin answers from.
    if (unsigned id = callee->getBuiltinID(); id != 0) {
      if (NodeId n = integer_abs_call(c, id); n != kNone) return n;       // builtins.cpp
      if (NodeId n = narrowed_rounding_call(c, id); n != kNone) return n;  // floats.cpp
      switch (BuiltinFamily family = builtin_family(ctx_.BuiltinInfo, id)) {
        case BuiltinFamily::Alloca: return alloca_call(c, id);  // in the frame, as gcc and clang
        case BuiltinFamily::Frame: return frame_builtin(c, id);
        case BuiltinFamily::None: unsupported(where, "builtin '" + std::string(ctx_.BuiltinInfo.getName(id)) + "'");
        default:
          if (!ctx_.BuiltinInfo.isPredefinedLibFunction(id)) return builtin_call(c, callee, id, family);
          // creal, sqrt, ... called by their library names
          if (family == BuiltinFamily::Complex) return builtin_call(c, callee, id, family);
          if (NodeId n = float_library_call(c, id); n != kNone) return n;
          break;  // a call of the library function
      }
    }
  }
  QualType result = c->getType();
  bool indirect_result = Types::is_aggregate(result);
  InputList inputs{rvalue(c->getCallee())};
  NodeId result_var = kNone;
  if (indirect_result) {
    result_var = variable(".call", types_.size(result, where), types_.align(result), l);
    inputs.push_back(result_var);
  }
  for (const Expr* arg : c->arguments()) {
    QualType t = arg->getType();
    if (Types::is_aggregate(t)) {  // the callee gets its own copy
      SourceLocation at = arg->getExprLoc();
      uint64_t size = types_.size(t, at);
      uint32_t align = types_.align(t);
      inputs.push_back(copy(size, align, variable(".arg", size, align, loc(at)), object(arg), loc(at)));
    } else {
      inputs.push_back(rvalue(arg));
    }
  }
  NodeId node = add(Op::AstCall, l, call_literals(c, c->getCallee()->getType()), std::move(inputs));
  return indirect_result ? seq(node, result_var, l) : node;
}

// The result type, and the callee's parameter list with its ABI attributes
// (FORMAT.md section 8) when the call needs it: when a parameter has an
// attribute or the callee is variadic. A callee without a prototype gets
// the list of its arguments' (promoted) types, marked variadic: gcc sets al
// for such a call, as the callee may be variadic. When a struct or union is
// passed through `...`, the list goes on with the type of every variadic
// argument (abi.h), so the aggregate's byval attribute says how it travels.
LiteralList FunctionBuilder::call_literals(const CallExpr* c, QualType callee_type) {
  SourceLocation where = c->getExprLoc();
  LiteralList literals{Literal::string(types_.result_type(c->getType(), where))};
  if (const auto* pointer = callee_type->getAs<PointerType>()) callee_type = pointer->getPointeeType();
  const auto* function_type = callee_type->getAs<FunctionType>();
  if (!function_type) return literals;
  const auto* proto = callee_type->getAs<FunctionProtoType>();
  std::vector<std::string> params;
  QualType result = function_type->getReturnType();
  if (Types::is_aggregate(result)) params.push_back(types_.result_pointer(result, where));
  unsigned fixed = proto ? proto->getNumParams() : c->getNumArgs();
  for (unsigned i = 0; i < fixed; ++i) {
    const Expr* arg = c->getArg(i);
    params.push_back(
        types_.param_type(proto ? proto->getParamType(i) : arg->getType(), arg->getExprLoc()));
  }
  // The variadic arguments' types, written when one is an aggregate.
  std::vector<std::string> varargs;
  bool aggregate_vararg = false;
  for (unsigned i = fixed; i < c->getNumArgs(); ++i) {
    const Expr* arg = c->getArg(i);
    aggregate_vararg = aggregate_vararg || Types::is_aggregate(arg->getType());
    varargs.push_back(types_.param_type(arg->getType(), arg->getExprLoc()));
  }
  if (!aggregate_vararg) varargs.clear();
  bool variadic = !proto || proto->isVariadic();
  bool attributes = std::any_of(params.begin(), params.end(),
                                [](const std::string& p) { return p != param_value_type(p); });
  if (variadic || attributes) literals.push_back(Literal::string(param_list_string(params, variadic, varargs)));
  return literals;
}

NodeId FunctionBuilder::builtin_call(const CallExpr* c, const FunctionDecl* callee, unsigned id, BuiltinFamily family) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  std::string name = ctx_.BuiltinInfo.getName(id);
  NodeId done = kNone;
  std::string library;
  switch (family) {
    case BuiltinFamily::Expect: return expect_builtin(c);  // expect.cpp
    case BuiltinFamily::Atomic:  // atomics.cpp; clang's AtomicExpr forms never come here
      done = atomic_builtin(c, name);
      if (done == kNone) unsupported(where, "builtin '" + name + "'");
      break;
    case BuiltinFamily::Vector: done = ia32_builtin(c, name); break;  // vectors.cpp
    case BuiltinFamily::Va: done = va_builtin(c, name); break;
    case BuiltinFamily::Float: done = float_builtin(c, name); break;
    case BuiltinFamily::Complex: done = complex_builtin(c, name); break;
    case BuiltinFamily::Bits: done = bit_builtin(c, name); break;
    case BuiltinFamily::Overflow: done = overflow_builtin(c, name); break;
    case BuiltinFamily::Query: done = query_builtin(c, name); break;
    case BuiltinFamily::Trap: library = "abort"; break;
    case BuiltinFamily::Library: library = name.substr(std::string("__builtin_").size()); break;
    case BuiltinFamily::None: case BuiltinFamily::Alloca: case BuiltinFamily::Frame: break;
  }
  if (done != kNone) return done;
  if (library.empty())  // the table named a family whose converter does not know the name
    throw std::logic_error("builtin '" + name + "' is in the table but not converted");
  InputList inputs{symaddr(module_.library_function(library, callee->getType(), where), l)};
  for (const Expr* arg : c->arguments()) inputs.push_back(rvalue(arg));
  return add(Op::AstCall, l, call_literals(c, callee->getType()), std::move(inputs));
}

// va_start, va_end and va_copy (FORMAT.md 3 G, "Variadic definitions"):
// the va_list arguments have decayed to the address of the 24-byte
// structure. va_end does nothing but evaluate its operand.
NodeId FunctionBuilder::va_builtin(const CallExpr* c, const std::string& name) {
  Loc l = loc(c->getExprLoc());
  if (name == "__builtin_va_start") {
    if (!fd_->isVariadic()) unsupported(c->getExprLoc(), "va_start outside a variadic function");
    return add(Op::AstVaStart, l, {}, {rvalue(c->getArg(0))});
  }
  if (name == "__builtin_va_end") return rvalue(c->getArg(0));
  NodeId dst = rvalue(c->getArg(0));
  return copy(kVaListSize, kVaListAlign, dst, rvalue(c->getArg(1)), l);
}

// va_arg(ap, T) for an integer, floating or pointer T. For a struct or
// union T, `ast:va_arg "ptr", "ptr byval(...)"`: the address of the
// argument's bytes (FORMAT.md 3 G), which is the aggregate's value here.
NodeId FunctionBuilder::va_arg_expr(const VAArgExpr* v) {
  SourceLocation where = v->getExprLoc();
  QualType type = v->getType();
  if (Types::is_aggregate(type))
    return add(Op::AstVaArg, loc(where), {Literal::string("ptr"), Literal::string(types_.param_type(type, where))},
               {rvalue(v->getSubExpr())});
  Scalar s = scalar(v);
  return add(Op::AstVaArg, loc(where), {Literal::string(vtype_name(s.vt))}, {rvalue(v->getSubExpr())});
}

NodeId FunctionBuilder::member(const MemberExpr* m) {
  SourceLocation where = m->getMemberLoc();
  Loc l = loc(where);
  NodeId base = m->isArrow() ? rvalue(m->getBase()) : object(m->getBase());
  uint64_t bytes = 0;
  const ValueDecl* d = m->getMemberDecl();
  // A bit-field's address is its unit's (bitfields.cpp).
  auto member_offset = [&](const FieldDecl* field) {
    return field->isBitField() ? types_.bitfield(field, where).unit_offset : types_.field_offset(field, where);
  };
  if (const auto* field = dyn_cast<FieldDecl>(d)) {
    check_storage_order_member(field, ctx_, where);  // storage_order.cpp
    bytes = member_offset(field);
  } else if (const auto* indirect = dyn_cast<IndirectFieldDecl>(d)) {
    check_storage_order_member(indirect->getAnonField(), ctx_, where);
    for (const NamedDecl* link : indirect->chain()) bytes += member_offset(cast<FieldDecl>(link));
  } else {
    unsupported(where, "member '" + d->getNameAsString() + "'");
  }
  return offset(base, bytes, l);
}

NodeId FunctionBuilder::declaration_address(const DeclRefExpr* e) {
  SourceLocation where = e->getLocation();
  Loc l = loc(where);
  const ValueDecl* d = e->getDecl();
  if (const auto* vd = dyn_cast<VarDecl>(d)) {
    auto found = locals_.find(vd);
    if (found != locals_.end()) {
      const Local& local = found->second;
      return local.indirect ? load(VType::Ptr, false, local.var, l) : local.var;
    }
    if (vd->hasLocalStorage()) unsupported(where, "reference to '" + vd->getNameAsString() + "' before its declaration");
  }
  if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getTLSKind() != VarDecl::TLS_None)
    return add(Op::AstTlsAddr, l, {Literal::string(module_.symbol(d, where))}, {});  // this thread's copy
  return symaddr(module_.symbol(d, where), l);
}

NodeId FunctionBuilder::address_node(const Expr* e) {
  SourceLocation where = e->getExprLoc();
  types_.check(e->getType(), where);
  Loc l = loc(where);
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) return declaration_address(d);
  if (const auto* p = dyn_cast<ParenExpr>(e)) return address(p->getSubExpr());
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Deref) return rvalue(u->getSubExpr());
    if (u->getOpcode() == UO_Extension) return address(u->getSubExpr());
    if (u->getOpcode() == UO_Real || u->getOpcode() == UO_Imag) return complex_part_address(u);
  }
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
    if (a->getBase()->getType()->isVectorType()) return vector_subscript_address(a);  // vectors.cpp
    // a[i] is *(a + i), with the operands in their written order.
    const Expr* lhs = a->getLHS();
    const Expr* rhs = a->getRHS();
    NodeId lv = rvalue(lhs);
    NodeId rv = rvalue(rhs);
    return arithmetic(BO_Add, lhs->getType(), rhs->getType(), lv, rv, loc(a->getRBracketLoc()), where);
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) return member(m);
  if (const auto* s = dyn_cast<StringLiteral>(e)) return symaddr(module_.string_literal(s), l);
  if (const auto* p = dyn_cast<PredefinedExpr>(e)) return symaddr(module_.string_literal(p->getFunctionName()), l);
  if (const auto* c = dyn_cast<CompoundLiteralExpr>(e)) return compound_literal(c);
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    if (c->getCastKind() == CK_NoOp || c->getCastKind() == CK_LValueBitCast) return address(c->getSubExpr());
  }
  if (const auto* g = dyn_cast<GenericSelectionExpr>(e)) return address(g->getResultExpr());
  if (const auto* c = dyn_cast<ChooseExpr>(e)) return address(c->getChosenSubExpr());
  if (isa<StmtExpr>(e)) unsupported(where, "statement expression used as a value");
  unsupported(where, std::string("lvalue '") + e->getStmtClassName() + "'");
}

// ---- expressions for their effects ----------------------------------------------------

NodeId FunctionBuilder::discard(const Expr* e, bool statement_level) {
  return deep([&]() -> NodeId {
    SourceLocation where = e->getExprLoc();
    Loc l = loc(where);
    if (const auto* p = dyn_cast<ParenExpr>(e)) return discard(p->getSubExpr(), statement_level);
    if (const auto* c = dyn_cast<CastExpr>(e); c && c->getCastKind() == CK_ToVoid)
      return discard(c->getSubExpr(), statement_level);
    if (const auto* u = dyn_cast<UnaryOperator>(e)) {
      if (u->getOpcode() == UO_Extension) return discard(u->getSubExpr(), statement_level);
      if (u->isIncrementDecrementOp()) {
        types_.check(u->getType(), where);
        if (u->getType()->isVectorType()) unsupported(where, "'++' or '--' on a vector");
        return increment(u, false);
      }
    }
    if (const auto* s = dyn_cast<StmtExpr>(e)) {
      if (!statement_level) unsupported(where, "statement expression inside an expression");
      return compound(s->getSubStmt());
    }
    if (statement_level) {
      if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Comma) {
        // `a, b, c;` is a block of three statements (left-nested: walk the
        // chain with a stack).
        std::vector<const Expr*> parts;
        const Expr* left = b;
        while (const auto* comma = dyn_cast<BinaryOperator>(left->IgnoreParens())) {
          if (comma->getOpcode() != BO_Comma) break;
          parts.push_back(comma->getRHS());
          left = comma->getLHS();
        }
        std::vector<NodeId> list{discard(left, true)};
        for (size_t i = parts.size(); i-- > 0;) list.push_back(discard(parts[i], true));
        return statements(list, l);
      }
      if (const auto* c = dyn_cast<ConditionalOperator>(e); c && c->getType()->isVoidType()) {
        NodeId cond = condition(c->getCond());
        NodeId then = discard(c->getTrueExpr(), true);
        NodeId otherwise = discard(c->getFalseExpr(), true);
        return add(Op::AstIf, loc(c->getQuestionLoc()), {},
                   {cond, then == kNone ? nop(l) : then, otherwise == kNone ? nop(l) : otherwise});
      }
    }
    if (e->isGLValue()) {
      // An lvalue read for nothing: only a volatile one is accessed.
      QualType t = e->getType();
      types_.check(t, where);
      if (t.isVolatileQualified() && !Types::is_aggregate(t) && !t->isArrayType() && !t->isFunctionType())
        return lvalue_conversion(e);
      if (!e->HasSideEffects(ctx_)) return kNone;
      return address(e);
    }
    return rvalue(e);
  });
}

}  // namespace pl::c2ast
