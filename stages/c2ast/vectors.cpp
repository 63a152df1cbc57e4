// vectors.cpp - GNU C vector types (`__attribute__((vector_size(N)))`,
// clang's ext_vector_type) and the SSE/SSE2 builtins clang 14's
// <xmmintrin.h> and <emmintrin.h> expand to (issue 19, "GNU C").
//
// Decision: a vector is an aggregate (Types::is_aggregate): an object of
// gcc's size and alignment (the element type's array, aligned to the
// vector's size as clang lays it out, which is gcc's), represented by its
// address like a struct. A local is an `ast:var`, assignment an `ast:copy`,
// a vector argument `ptr byval(...)` and a vector result `ptr sret(...)`; a
// vector rvalue computed here is a fresh `.vector` variable whose address is
// the expression's value.
//
// 16-byte vectors and SSE2. An operation on 16-byte vectors that SSE2 does
// in one instruction is one `ast:v128.op` (FORMAT.md 7, "16-byte vectors
// (v128)"; common/ir/eval_v128.h): the instruction's name, its immediate,
// and the addresses of the result (a fresh `.vector`) and the operands;
// ast2cfg makes it the memory operation v128.op, son-lower-x64
// x64:v128.op, and codegen-x64 writes `movdqu; movdqu; OP; movdqu` (so
// `a + b` on __m128i is one paddd). That covers + - on every integer lane
// width, & | ^, == and signed > < on 8/16/32-bit lanes (pcmpeq, pcmpgt),
// 16-bit * (pmullw), << >> of 16/32/64-bit lanes by a constant in range
// (psllwi ... psradi), + - * / and the six comparisons of float and double
// lanes (addps ... cmpps with its predicate), unary - of integer lanes
// (psub from zero), and the __builtin_ia32_* of the SSE2 header that are one
// instruction (kSse below: saturating adds, pavg, pmulh, shifts, packs,
// pshufd, shufps, psadbw, pmaddwd, pmuludq, min/max, sqrt, cmpps/cmppd,
// pslldq, cvttps2dq ...). What SSE2 lacks (32/64-bit and 8-bit lane
// multiply, division and remainder, unsigned and 64-bit compares, shifts by
// a variable or per-lane count, float negation, ~) and every vector of 4, 8
// or 32 bytes is written out element by element as before: the operands'
// addresses are evaluated once (FunctionBuilder::pin), then for every
// element i the result's element i is stored from the operation on the
// operands' elements i (loads of the element type); sonopt's scalar
// replacement and load forwarding then keep small vectors in registers.
// Both forms are correct at every level: pipe-run runs v128.op as the
// processor (eval_v128.h runs the same instruction on the host).
//
// Departure from the issue: the vector opcodes are memory-form ones (as
// f80.*), not operations on a 128-bit SSA value: a vector lives in its
// object between operations, and no stage after c2ast holds one in a
// register across operations. A 128-bit value type would have to reach
// eval.h's 64-bit values, pipe-run's value slots and regalloc's 8-byte
// spill slots; it is left for later (the ABI below does without it).
//
// The ABI is gcc's (System V 3.2.3, as gcc classifies vector modes) where
// the IR can say it: a vector of 8 bytes is one SSE eightbyte (in an xmm
// register's low 8 bytes, as gcc passes __m64 and v2si), one of 32 bytes or
// more (without -mavx) is MEMORY, on the stack aligned to its alignment,
// and returned through the hidden pointer, as gcc -O2 does (it warns
// -Wpsabi); vectors of 4 bytes or fewer are classified by their elements
// (INTEGER for integer elements, as gcc's V4QI/V2HI modes are). A vector of
// 16 bytes (and a 16-byte struct or union of one) is SSE, SSEUP: the whole
// vector in ONE xmm register, `ptr byval(16,16,su)` / `ptr sret(16,16,su)`,
// passed in the next of xmm0-xmm7 (counted with the float arguments), on
// the stack 16-aligned once they run out, returned in xmm0, through `...`
// as a named one, and read by va_arg from a 16-byte xmm slot of the
// register save area or the 16-aligned overflow area, as gcc does.
//
// Decision (issue 19, the ABI of 16-byte vectors): the memory form stays,
// and only the boundary moves 16 bytes through an xmm register; there is no
// 128-bit value type. son-lower-x64 (abi.cpp) copies a vector argument
// into the outgoing argument area, and x64:call loads it into its register
// right before the call instruction (literal pairs: register, offset);
// a vector result is stored by the call from xmm0 to the outgoing area
// right after it and copied to the result object; the callee's
// x64:v128.param stores the register to the parameter's stack slot in the
// prologue, and x64:v128.ret loads the result into xmm0 before x64:ret
// (FORMAT.md section 8, "16-byte vectors"). So no 16-byte value ever lives
// in a register the allocator manages: regalloc-x64's slots, its moves and
// pipe-run's 64-bit registers stay as they are, and pipe-run models the
// vector registers at calls and returns only (interp.cpp). A 128-bit value
// type would also keep vectors in registers between operations; that is
// the larger change left for later, with the cost of one store and load per
// boundary crossing until then.
//
// Semantics, as gcc computes them (gcc/doc/extend.texi, "Vector Extensions"):
//   - + - * / % & | ^ << >> element-wise in the element type: elements of
//     char and short type are computed in int and truncated (so the
//     wrap-around is the element type's; a char element's -128 / -1 is
//     -128, as gcc's, without trapping), int and long ones in their type;
//     float and double ones with the scalar floating opcodes;
//   - a scalar operand is broadcast (clang's CK_VectorSplat, after the
//     scalar's conversion to the element type);
//   - comparisons give a vector of signed integers of the element's width
//     with -1 for true and 0 for false (floating: ordered compares, != is
//     unordered, as C's scalar operators);
//   - unary - ~ +, compound assignment (the right operand computed, then
//     stored element-wise), `v[i]` as an lvalue and an rvalue (the
//     element's address in the vector's storage; an rvalue vector is
//     computed into its temporary first);
//   - casts between vectors of the same size reinterpret the bytes (the
//     same address); a cast between a vector and a scalar of its size
//     stores or loads the scalar;
//   - brace initializers (locals, compound literals, globals through clang's
//     constant evaluator: data.cpp APValue::Vector), missing elements zero;
//   - __builtin_shufflevector (constant indices; -1 gives 0) and
//     __builtin_convertvector (element-wise C conversion); gcc's
//     __builtin_shuffle is not known to clang 14, which rejects it;
//   - the __builtin_ia32_* builtins of clang 14's SSE/SSE2 headers listed
//     in ia32_builtin() below, one v128.op where kSse has it, the others
//     (and those with a variable count or selector) each written out by the instruction's
//     definition in Intel's manual (saturating adds and packs, pmovmskb,
//     psadbw, pmaddwd, pshufd, the immediate and register shifts with their
//     out-of-range counts, min/max with SSE's operand order for NaN,
//     cmpps/cmppd masks ...). Any other __builtin_ia32_* stops with
//     "unsupported: builtin '__builtin_ia32_...'" (builtin_call).
// Refused by name: vector ++/--, && || ! and ?: on vectors (C++ or OpenCL
// only in clang), ext_vector swizzles (`v.xy`), vectors of other element
// types (_Bool, __int128, long double, _Float16).
#include "c2ast.h"

#include <clang/Basic/Builtins.h>

#include "ir/eval_v128.h"

#include <deque>

namespace pl::c2ast {

using namespace clang;

FunctionBuilder::VectorShape FunctionBuilder::vector_shape(QualType t, SourceLocation where) const {
  const auto* v = t->castAs<VectorType>();
  VectorShape s;
  s.element_type = v->getElementType();
  s.element = types_.scalar(s.element_type, where);
  s.count = v->getNumElements();
  s.step = vtype_bits(s.element.vt) / 8;
  s.size = types_.size(t, where);
  s.align = types_.align(t);
  return s;
}

namespace {

bool is_vector(QualType t) { return !t.isNull() && t->isVectorType(); }

// The IR type an element operation is computed in: int for char and short.
VType work_type(VType t) { return t == VType::I8 || t == VType::I16 ? VType::I32 : t; }

}  // namespace

// An operand whose address was never used (a shuffle that reads one
// operand only): evaluated for its effects all the same.
void FunctionBuilder::settle(Pinned& p, std::vector<NodeId>& out) {
  if (p.var == kNone && !p.used) {
    out.push_back(p.tree);
    p.used = true;
  }
}

NodeId FunctionBuilder::vector_temporary(const VectorShape& s, Loc l) {
  return variable(".vector", s.size, s.align, l);
}

NodeId FunctionBuilder::vector_element(Pinned& at, const VectorShape& s, unsigned i, Loc l) {
  return load(s.element.vt, false, offset(use(at, l), i * s.step, l), l);
}

// One element operation on values already in the element type `s`; the
// result in `r` (the result vector's element type).
NodeId FunctionBuilder::vector_element_op(BinaryOperatorKind k, Scalar s, Scalar r, NodeId a, NodeId b, Loc l,
                                          SourceLocation where) {
  VType t = s.vt;
  if (is_float(t)) {
    switch (k) {
      case BO_Add:
      case BO_Sub:
      case BO_Mul:
      case BO_Div: return float_arithmetic(k, t, a, b, l, where);
      case BO_EQ:
      case BO_NE:
      case BO_LT:
      case BO_LE:
      case BO_GT:
      case BO_GE: {
        NodeId bit = float_arithmetic(k, t, a, b, l, where);
        return convert(op("neg", VType::I32, l, bit), {VType::I32, true}, r, l);
      }
      default: unsupported(where, "operator '" + BinaryOperator::getOpcodeStr(k).str() + "' on floating vectors");
    }
  }
  VType w = work_type(t);
  Scalar wide{w, s.is_signed};
  auto widen = [&](NodeId v) { return convert(v, s, wide, l); };
  const char* name = nullptr;
  bool compare = false, swap = false;
  switch (k) {
    case BO_Add: name = "add"; break;
    case BO_Sub: name = "sub"; break;
    case BO_Mul: name = "mul"; break;
    case BO_Div: name = s.is_signed ? "sdiv" : "udiv"; break;
    case BO_Rem: name = s.is_signed ? "srem" : "urem"; break;
    case BO_And: name = "and"; break;
    case BO_Or: name = "or"; break;
    case BO_Xor: name = "xor"; break;
    case BO_Shl: name = "shl"; break;
    case BO_Shr: name = s.is_signed ? "ashr" : "lshr"; break;
    case BO_EQ: name = "eq", compare = true; break;
    case BO_NE: name = "ne", compare = true; break;
    case BO_LT: name = s.is_signed ? "slt" : "ult", compare = true; break;
    case BO_LE: name = s.is_signed ? "sle" : "ule", compare = true; break;
    case BO_GT: name = s.is_signed ? "slt" : "ult", compare = swap = true; break;
    case BO_GE: name = s.is_signed ? "sle" : "ule", compare = swap = true; break;
    default: unsupported(where, "operator '" + BinaryOperator::getOpcodeStr(k).str() + "' on vectors");
  }
  if (compare) {
    NodeId x = widen(a), y = widen(b);
    NodeId bit = swap ? op(name, w, l, y, x) : op(name, w, l, x, y);
    return convert(op("neg", VType::I32, l, bit), {VType::I32, true}, r, l);
  }
  NodeId v = op(name, w, l, widen(a), widen(b));
  return convert(v, wide, s, l);
}

NodeId FunctionBuilder::vector_sse(const char* name, uint64_t imm, const VectorShape& result, NodeId a, NodeId b,
                                   Loc l) {
  NodeId res = vector_temporary(result, l);
  return add(Op::AstV128Op, l, {Literal::string(name), Literal::integer(static_cast<int64_t>(imm))}, {res, a, b});
}

namespace {

// The one SSE/SSE2 instruction that computes `a k b` on two 16-byte vectors
// of element type s (gcc's choice at -O0 with -msse2 only), or nullptr:
// `swap` when it computes `b k a` (a > b is pcmpgt; a < b is pcmpgt with
// the operands swapped), `imm` the cmpps predicate. SSE2 has no 8-bit or
// 32/64-bit lane multiply, no 64-bit compare, no unsigned compare, no
// integer division and no per-lane shift: those stay element by element.
const char* sse2_binary(BinaryOperatorKind k, Scalar s, bool& swap, uint64_t& imm) {
  swap = false;
  imm = 0;
  VType t = s.vt;
  if (t == VType::F32 || t == VType::F64) {
    bool ps = t == VType::F32;
    switch (k) {
      case BO_Add: return ps ? "addps" : "addpd";
      case BO_Sub: return ps ? "subps" : "subpd";
      case BO_Mul: return ps ? "mulps" : "mulpd";
      case BO_Div: return ps ? "divps" : "divpd";
      // cmpps predicates: 0 eq (ordered), 1 lt, 2 le, 4 neq (unordered: C's
      // != is true for a NaN); a > b is b < a, a >= b is b <= a.
      case BO_EQ: imm = 0; return ps ? "cmpps" : "cmppd";
      case BO_NE: imm = 4; return ps ? "cmpps" : "cmppd";
      case BO_LT: imm = 1; return ps ? "cmpps" : "cmppd";
      case BO_LE: imm = 2; return ps ? "cmpps" : "cmppd";
      case BO_GT: imm = 1, swap = true; return ps ? "cmpps" : "cmppd";
      case BO_GE: imm = 2, swap = true; return ps ? "cmpps" : "cmppd";
      default: return nullptr;
    }
  }
  unsigned bits = vtype_bits(t);
  auto by_width = [&](const char* b, const char* w, const char* d, const char* q) -> const char* {
    return bits == 8 ? b : bits == 16 ? w : bits == 32 ? d : bits == 64 ? q : nullptr;
  };
  switch (k) {
    case BO_Add: return by_width("paddb", "paddw", "paddd", "paddq");
    case BO_Sub: return by_width("psubb", "psubw", "psubd", "psubq");
    case BO_And: return bits >= 8 ? "pand" : nullptr;
    case BO_Or: return bits >= 8 ? "por" : nullptr;
    case BO_Xor: return bits >= 8 ? "pxor" : nullptr;
    case BO_Mul: return bits == 16 ? "pmullw" : nullptr;
    case BO_EQ: return by_width("pcmpeqb", "pcmpeqw", "pcmpeqd", nullptr);
    case BO_GT: return s.is_signed ? by_width("pcmpgtb", "pcmpgtw", "pcmpgtd", nullptr) : nullptr;
    case BO_LT: swap = true; return s.is_signed ? by_width("pcmpgtb", "pcmpgtw", "pcmpgtd", nullptr) : nullptr;
    default: return nullptr;
  }
}

// A shift of 16-, 32- or 64-bit lanes by a constant in range (clang splats
// the scalar count: CK_VectorSplat of a constant): psllwi ... psradi.
const char* sse2_shift(BinaryOperatorKind k, Scalar s, const Expr* count, const ASTContext& ctx, uint64_t& imm) {
  if (k != BO_Shl && k != BO_Shr) return nullptr;
  const auto* splat = dyn_cast<CastExpr>(count->IgnoreParens());
  while (splat && splat->getCastKind() != CK_VectorSplat && isa<ImplicitCastExpr>(splat))
    splat = dyn_cast<CastExpr>(splat->getSubExpr()->IgnoreParens());
  if (!splat || splat->getCastKind() != CK_VectorSplat) return nullptr;
  Expr::EvalResult r;
  if (!splat->getSubExpr()->EvaluateAsInt(r, ctx)) return nullptr;
  unsigned bits = vtype_bits(s.vt);
  const llvm::APSInt& v = r.Val.getInt();
  if (v.isNegative() || v.getActiveBits() > 32 || v.getZExtValue() >= bits) return nullptr;  // undefined in C
  imm = v.getZExtValue();
  bool ashr = k == BO_Shr && s.is_signed;
  switch (bits) {
    case 16: return k == BO_Shl ? "psllwi" : ashr ? "psrawi" : "psrlwi";
    case 32: return k == BO_Shl ? "pslldi" : ashr ? "psradi" : "psrldi";
    case 64: return k == BO_Shl ? "psllqi" : ashr ? nullptr : "psrlqi";
    default: return nullptr;
  }
}

}  // namespace

// a OP b element-wise into a fresh temporary of `result`'s type: one SSE2
// instruction (ast:v128.op) on 16-byte vectors where SSE2 has it, else
// element by element.
NodeId FunctionBuilder::vector_binary(BinaryOperatorKind k, QualType result, const Expr* lhs, const Expr* rhs,
                                      NodeId a, NodeId b, Loc l, SourceLocation where) {
  VectorShape in = vector_shape(lhs->getType(), where);
  VectorShape out_shape = vector_shape(result, where);
  VectorShape rs = vector_shape(rhs->getType(), where);
  if (in.size == kV128Bytes && out_shape.size == kV128Bytes) {
    bool swap = false;
    uint64_t imm = 0;
    // (A splat count may have another element type: short << int.)
    if (const char* name = sse2_shift(k, in.element, rhs, ctx_, imm)) {
      std::vector<NodeId> out = {b};  // the count, for its effects (a constant)
      NodeId held = hold(VType::Ptr, a, out, l);  // one operand: its address twice
      NodeId r = vector_sse(name, imm, out_shape, load(VType::Ptr, false, held, l), load(VType::Ptr, false, held, l), l);
      return seq(statements(out, l), r, l);
    }
    if (rs.size == kV128Bytes && rs.element.vt == in.element.vt) {
      if (const char* name = sse2_binary(k, in.element, swap, imm))
        return swap ? vector_sse(name, imm, out_shape, b, a, l)  // C leaves the operands' order open
                    : vector_sse(name, imm, out_shape, a, b, l);
    }
  }
  std::vector<NodeId> out;
  Pinned pa = pin(a, out, l);
  Pinned pb = pin(b, out, l);
  NodeId res = vector_temporary(out_shape, l);
  for (unsigned i = 0; i < out_shape.count; ++i) {
    NodeId x = vector_element(pa, in, i, l);
    NodeId y = vector_element(pb, rs, i, l);
    if (rs.element.vt != in.element.vt) y = convert(y, rs.element, in.element, l);  // a shift count
    NodeId v = vector_element_op(k, in.element, out_shape.element, x, y, l, where);
    out.push_back(store(out_shape.element.vt, false, offset(res, i * out_shape.step, l), v, l));
  }
  return seq(statements(out, l), res, l);
}

NodeId FunctionBuilder::vector_splat(const Expr* scalar_expr, QualType vector_type, Loc l, SourceLocation where) {
  VectorShape s = vector_shape(vector_type, where);
  std::vector<NodeId> out;
  NodeId v = convert(rvalue(scalar_expr), scalar(scalar_expr), s.element, l);
  NodeId held = hold(s.element.vt, v, out, l);
  NodeId res = vector_temporary(s, l);
  for (unsigned i = 0; i < s.count; ++i)
    out.push_back(store(s.element.vt, false, offset(res, i * s.step, l), load(s.element.vt, false, held, l), l));
  return seq(statements(out, l), res, l);
}

NodeId FunctionBuilder::vector_zero(QualType vector_type, Loc l, SourceLocation where) {
  VectorShape s = vector_shape(vector_type, where);
  NodeId res = vector_temporary(s, l);
  NodeId c = copy(s.size, s.align, res, symaddr(module_.zeros(s.size, s.align), l), l);
  return seq(c, res, l);
}

// The address of `base[index]` for a vector-typed base.
NodeId FunctionBuilder::vector_subscript_address(const ArraySubscriptExpr* a) {
  SourceLocation where = a->getExprLoc();
  Loc l = loc(a->getRBracketLoc());
  const Expr* base = a->getBase();
  const Expr* index = a->getIdx();
  VectorShape s = vector_shape(base->getType(), where);
  NodeId at = object(base);
  NodeId i = rvalue(index);
  NodeId scaled = pointer_offset(i, scalar(index), s.step, l);
  return op("add", VType::Ptr, l, at, scaled);
}

NodeId FunctionBuilder::vector_cast(const CastExpr* c) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  const Expr* sub = c->getSubExpr();
  QualType to = c->getType(), from = sub->getType();
  switch (c->getCastKind()) {
    case CK_VectorSplat: return vector_splat(sub, to, l, where);
    case CK_BitCast: {
      if (is_vector(to) && is_vector(from)) return object(sub);
      if (is_vector(from)) {  // to a scalar of the same size: its bytes
        if (Types::is_aggregate(to)) return object(sub);
        return load(scalar(c).vt, false, object(sub), l);
      }
      // a scalar to a vector of its size
      VectorShape s = vector_shape(to, where);
      std::vector<NodeId> out;
      NodeId res = vector_temporary(s, l);
      if (Types::is_aggregate(from))
        out.push_back(copy(s.size, s.align, res, object(sub), l));
      else
        out.push_back(store(scalar(sub).vt, false, res, rvalue(sub), l));
      return seq(statements(out, l), res, l);
    }
    default: break;
  }
  unsupported(where, std::string("conversion '") + c->getCastKindName() + "' of a vector");
}

NodeId FunctionBuilder::vector_unary(const UnaryOperator* u) {
  SourceLocation where = u->getOperatorLoc();
  Loc l = loc(where);
  const Expr* sub = u->getSubExpr();
  switch (u->getOpcode()) {
    case UO_Plus:
    case UO_Extension: return rvalue(sub);
    case UO_Minus:
    case UO_Not: {
      VectorShape s = vector_shape(sub->getType(), where);
      if (u->getOpcode() == UO_Minus && s.size == kV128Bytes && !is_float(s.element.vt)) {  // 0 - a: psub
        unsigned bits = vtype_bits(s.element.vt);
        const char* name = bits == 8 ? "psubb" : bits == 16 ? "psubw" : bits == 32 ? "psubd" : "psubq";
        return vector_sse(name, 0, s, symaddr(module_.zeros(s.size, s.align), l), object(sub), l);
      }
      std::vector<NodeId> out;
      Pinned pa = pin(object(sub), out, l);
      NodeId res = vector_temporary(s, l);
      for (unsigned i = 0; i < s.count; ++i) {
        NodeId x = vector_element(pa, s, i, l);
        NodeId v;
        if (is_float(s.element.vt))
          v = op("fneg", s.element.vt, l, x);
        else
          v = op(u->getOpcode() == UO_Minus ? "neg" : "not", s.element.vt, l, x);
        out.push_back(store(s.element.vt, false, offset(res, i * s.step, l), v, l));
      }
      return seq(statements(out, l), res, l);
    }
    default: break;
  }
  unsupported(where, "operator '" + UnaryOperator::getOpcodeStr(u->getOpcode()).str() + "' on a vector");
}

NodeId FunctionBuilder::vector_compound_assignment(const CompoundAssignOperator* e) {
  SourceLocation where = e->getOperatorLoc();
  Loc l = loc(where);
  const Expr* lhs = e->getLHS();
  QualType t = lhs->getType();
  if (!is_vector(e->getComputationLHSType()) || e->getComputationLHSType().getCanonicalType() != t.getCanonicalType())
    unsupported(where, "compound assignment to a vector with a conversion");
  VectorShape s = vector_shape(t, where);
  std::vector<NodeId> out;
  TwoUses at = address_twice(lhs, l);
  if (at.setup != kNone) out.push_back(at.setup);
  BinaryOperatorKind k = BinaryOperator::getOpForCompoundAssignment(e->getOpcode());
  NodeId value = vector_binary(k, e->getComputationResultType(), lhs, e->getRHS(), at.first, object(e->getRHS()), l, where);
  NodeId held = hold(VType::Ptr, value, out, l);
  Pinned dst = pin(at.second, out, l);
  out.push_back(copy(s.size, s.align, use(dst, l), load(VType::Ptr, false, held, l), l));
  return seq(statements(out, l), load(VType::Ptr, false, held, l), l);
}

NodeId FunctionBuilder::vector_shuffle(const ShuffleVectorExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  const Expr* a = e->getExpr(0);
  const Expr* b = e->getExpr(1);
  VectorShape in = vector_shape(a->getType(), where);
  VectorShape r = vector_shape(e->getType(), where);
  std::vector<NodeId> out;
  Pinned pa = pin(object(a), out, l);
  Pinned pb = pin(object(b), out, l);
  NodeId res = vector_temporary(r, l);
  for (unsigned i = 0; i < r.count; ++i) {
    llvm::APSInt idx = e->getShuffleMaskIdx(ctx_, i);
    int64_t k = idx.getSExtValue();
    NodeId v;
    if (k < 0)
      v = is_float(r.element.vt) ? float_constant(r.element.vt, 0.0, l) : constant(r.element.vt, 0, l);
    else if (static_cast<uint64_t>(k) < in.count)
      v = vector_element(pa, in, static_cast<unsigned>(k), l);
    else
      v = vector_element(pb, in, static_cast<unsigned>(k - in.count), l);
    out.push_back(store(r.element.vt, false, offset(res, i * r.step, l), v, l));
  }
  settle(pa, out);
  settle(pb, out);
  return seq(statements(out, l), res, l);
}

NodeId FunctionBuilder::vector_convert(const ConvertVectorExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  const Expr* src = e->getSrcExpr();
  VectorShape in = vector_shape(src->getType(), where);
  VectorShape r = vector_shape(e->getType(), where);
  std::vector<NodeId> out;
  Pinned pa = pin(object(src), out, l);
  NodeId res = vector_temporary(r, l);
  for (unsigned i = 0; i < r.count; ++i) {
    NodeId x = vector_element(pa, in, i, l);
    out.push_back(store(r.element.vt, false, offset(res, i * r.step, l),
                        convert_type(x, in.element_type, r.element_type, l, where), l));
  }
  return seq(statements(out, l), res, l);
}

NodeId FunctionBuilder::vector_expression(const Expr* e) {
  QualType t = e->getType();
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(e); a && is_vector(a->getBase()->getType())) {
    Loc l = loc(e->getExprLoc());
    return load(scalar(e).vt, a->getBase()->getType().isVolatileQualified(), vector_subscript_address(a), l);
  }
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    CastKind k = c->getCastKind();
    if (k == CK_VectorSplat || (k == CK_BitCast && (is_vector(t) || is_vector(c->getSubExpr()->getType()))))
      return vector_cast(c);
    return kNone;
  }
  if (const auto* c = dyn_cast<CompoundAssignOperator>(e)) {
    if (is_vector(t)) return vector_compound_assignment(c);
    return kNone;
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    const Expr* lhs = b->getLHS();
    if (!is_vector(lhs->getType())) return kNone;
    BinaryOperatorKind k = b->getOpcode();
    if (k == BO_Assign || k == BO_Comma) return kNone;
    if (k == BO_LAnd || k == BO_LOr) unsupported(b->getOperatorLoc(), "operator '&&' or '||' on vectors");
    Loc l = loc(b->getOperatorLoc());
    NodeId x = object(lhs);
    NodeId y = object(b->getRHS());
    return vector_binary(k, t, lhs, b->getRHS(), x, y, l, b->getOperatorLoc());
  }
  if (!is_vector(t)) return kNone;
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->isIncrementDecrementOp()) unsupported(u->getOperatorLoc(), "'++' or '--' on a vector");
    return vector_unary(u);
  }
  if (const auto* s = dyn_cast<ShuffleVectorExpr>(e)) return vector_shuffle(s);
  if (const auto* c = dyn_cast<ConvertVectorExpr>(e)) return vector_convert(c);
  if (isa<ImplicitValueInitExpr>(e)) return vector_zero(t, loc(e->getExprLoc()), e->getExprLoc());
  if (const auto* list = dyn_cast<InitListExpr>(e)) {
    Loc l = loc(e->getExprLoc());
    VectorShape s = vector_shape(t, e->getExprLoc());
    NodeId var = vector_temporary(s, l);
    std::vector<NodeId> out;
    initialize_object(var, t, list, l, out);
    return seq(statements(out, l), var, l);
  }
  if (isa<ExtVectorElementExpr>(e)) unsupported(e->getExprLoc(), "ext_vector element access (swizzle)");
  return kNone;
}

// `{a, b, ...}` for a vector at `var` + `at`: each element (or a vector,
// which clang allows in ext_vector lists) in order, the rest zero.
void FunctionBuilder::initialize_vector(NodeId var, uint64_t at, QualType type, const InitListExpr* list,
                                        std::vector<NodeId>& out, bool& needs_zero) {
  SourceLocation where = list->getBeginLoc();
  Loc l = loc(where);
  VectorShape s = vector_shape(type, where);
  uint64_t filled = 0;
  for (unsigned i = 0; i < list->getNumInits() && filled < s.count; ++i) {
    const Expr* init = list->getInit(i);
    if (is_vector(init->getType())) {
      VectorShape part = vector_shape(init->getType(), where);
      out.push_back(copy(part.size, 1, offset(var, at + filled * s.step, l), object(init), l));
      filled += part.count;
      continue;
    }
    if (isa<ImplicitValueInitExpr>(init)) {
      needs_zero = true;
      ++filled;
      continue;
    }
    NodeId v = convert_type(rvalue(init), init->getType(), s.element_type, l, init->getExprLoc());
    out.push_back(store(s.element.vt, false, offset(var, at + filled * s.step, l), v, l));
    ++filled;
  }
  if (filled < s.count) needs_zero = true;
}

namespace {

enum class Ia32 {
  None, AddSat, SubSat, AddUSat, SubUSat, Avg, MulHi, MulHiU, Max, Min, ShiftImm, ShiftVec, MoveMask, PackSS,
  PackUS, Shuffle, ShuffleLow, ShuffleHigh, Sad, MAddWd, MulUdq, FMax, FMin, FSqrt, FCmp, ByteShiftLeft,
  ByteShiftRight, Undef, ExtractElt, InsertElt, ShufPs, ShufPd, TruncToInt,
};

struct Ia32Entry {
  const char* name;
  Ia32 kind;
  const char* detail;  // shifts: "shl" "lshr" "ashr"; compares: the predicate
};

// The builtins of clang 14's <xmmintrin.h> and <emmintrin.h> on 128-bit
// vectors that are written out here.
const Ia32Entry kIa32[] = {
    {"paddsb128", Ia32::AddSat, ""},   {"paddsw128", Ia32::AddSat, ""},     {"psubsb128", Ia32::SubSat, ""},
    {"psubsw128", Ia32::SubSat, ""},   {"paddusb128", Ia32::AddUSat, ""},   {"paddusw128", Ia32::AddUSat, ""},
    {"psubusb128", Ia32::SubUSat, ""}, {"psubusw128", Ia32::SubUSat, ""},   {"pavgb128", Ia32::Avg, ""},
    {"pavgw128", Ia32::Avg, ""},       {"pmulhw128", Ia32::MulHi, ""},      {"pmulhuw128", Ia32::MulHiU, ""},
    {"psllwi128", Ia32::ShiftImm, "shl"},  {"pslldi128", Ia32::ShiftImm, "shl"},  {"psllqi128", Ia32::ShiftImm, "shl"},
    {"psrlwi128", Ia32::ShiftImm, "lshr"}, {"psrldi128", Ia32::ShiftImm, "lshr"}, {"psrlqi128", Ia32::ShiftImm, "lshr"},
    {"psrawi128", Ia32::ShiftImm, "ashr"}, {"psradi128", Ia32::ShiftImm, "ashr"},
    {"psllw128", Ia32::ShiftVec, "shl"},   {"pslld128", Ia32::ShiftVec, "shl"},   {"psllq128", Ia32::ShiftVec, "shl"},
    {"psrlw128", Ia32::ShiftVec, "lshr"},  {"psrld128", Ia32::ShiftVec, "lshr"},  {"psrlq128", Ia32::ShiftVec, "lshr"},
    {"psraw128", Ia32::ShiftVec, "ashr"},  {"psrad128", Ia32::ShiftVec, "ashr"},
    {"pmovmskb128", Ia32::MoveMask, ""},   {"movmskps", Ia32::MoveMask, ""},      {"movmskpd", Ia32::MoveMask, ""},
    {"packsswb128", Ia32::PackSS, ""},     {"packssdw128", Ia32::PackSS, ""},     {"packuswb128", Ia32::PackUS, ""},
    {"pshufd", Ia32::Shuffle, ""},         {"pshuflw", Ia32::ShuffleLow, ""},     {"pshufhw", Ia32::ShuffleHigh, ""},
    {"psadbw128", Ia32::Sad, ""},          {"pmaddwd128", Ia32::MAddWd, ""},      {"pmuludq128", Ia32::MulUdq, ""},
    {"maxps", Ia32::FMax, ""},             {"maxpd", Ia32::FMax, ""},             {"minps", Ia32::FMin, ""},
    {"minpd", Ia32::FMin, ""},             {"sqrtps", Ia32::FSqrt, ""},           {"sqrtpd", Ia32::FSqrt, ""},
    {"cmpeqps", Ia32::FCmp, "foeq"},       {"cmpeqpd", Ia32::FCmp, "foeq"},       {"cmpltps", Ia32::FCmp, "folt"},
    {"cmpltpd", Ia32::FCmp, "folt"},       {"cmpleps", Ia32::FCmp, "fole"},       {"cmplepd", Ia32::FCmp, "fole"},
    {"cmpneqps", Ia32::FCmp, "fune"},      {"cmpneqpd", Ia32::FCmp, "fune"},      {"cmpnltps", Ia32::FCmp, "fuge"},
    {"cmpnltpd", Ia32::FCmp, "fuge"},      {"cmpnleps", Ia32::FCmp, "fugt"},      {"cmpnlepd", Ia32::FCmp, "fugt"},
    {"cmpordps", Ia32::FCmp, "ford"},      {"cmpordpd", Ia32::FCmp, "ford"},      {"cmpunordps", Ia32::FCmp, "funo"},
    {"cmpunordpd", Ia32::FCmp, "funo"},
    {"pslldqi128_byteshift", Ia32::ByteShiftLeft, ""}, {"psrldqi128_byteshift", Ia32::ByteShiftRight, ""},
    {"undef128", Ia32::Undef, ""},         {"vec_ext_v8hi", Ia32::ExtractElt, ""}, {"vec_set_v8hi", Ia32::InsertElt, ""},
    {"shufps", Ia32::ShufPs, ""},          {"shufpd", Ia32::ShufPd, ""},
    {"cvttps2dq", Ia32::TruncToInt, ""},   {"cvttpd2dq", Ia32::TruncToInt, ""},
};

// The builtins above that are one SSE/SSE2 instruction on 16-byte vectors:
// the v128.op and where its immediate comes from (kArg1/kArg2: that
// argument, a constant; otherwise the fixed predicate of a compare).
constexpr int kArg1 = -1, kArg2 = -2;
struct SseEntry {
  const char* builtin;
  const char* op;
  int imm;
};
const SseEntry kSse[] = {
    {"paddsb128", "paddsb", 0},   {"paddsw128", "paddsw", 0},   {"psubsb128", "psubsb", 0},
    {"psubsw128", "psubsw", 0},   {"paddusb128", "paddusb", 0}, {"paddusw128", "paddusw", 0},
    {"psubusb128", "psubusb", 0}, {"psubusw128", "psubusw", 0}, {"pavgb128", "pavgb", 0},
    {"pavgw128", "pavgw", 0},     {"pmulhw128", "pmulhw", 0},   {"pmulhuw128", "pmulhuw", 0},
    {"psllwi128", "psllwi", kArg1}, {"pslldi128", "pslldi", kArg1}, {"psllqi128", "psllqi", kArg1},
    {"psrlwi128", "psrlwi", kArg1}, {"psrldi128", "psrldi", kArg1}, {"psrlqi128", "psrlqi", kArg1},
    {"psrawi128", "psrawi", kArg1}, {"psradi128", "psradi", kArg1},
    {"psllw128", "psllw", 0},     {"pslld128", "pslld", 0},     {"psllq128", "psllq", 0},
    {"psrlw128", "psrlw", 0},     {"psrld128", "psrld", 0},     {"psrlq128", "psrlq", 0},
    {"psraw128", "psraw", 0},     {"psrad128", "psrad", 0},
    {"packsswb128", "packsswb", 0}, {"packssdw128", "packssdw", 0}, {"packuswb128", "packuswb", 0},
    {"pshufd", "pshufd", kArg1},  {"pshuflw", "pshuflw", kArg1}, {"pshufhw", "pshufhw", kArg1},
    {"psadbw128", "psadbw", 0},   {"pmaddwd128", "pmaddwd", 0}, {"pmuludq128", "pmuludq", 0},
    {"maxps", "maxps", 0},        {"maxpd", "maxpd", 0},        {"minps", "minps", 0},
    {"minpd", "minpd", 0},        {"sqrtps", "sqrtps", 0},      {"sqrtpd", "sqrtpd", 0},
    {"cmpeqps", "cmpps", 0},      {"cmpeqpd", "cmppd", 0},      {"cmpltps", "cmpps", 1},
    {"cmpltpd", "cmppd", 1},      {"cmpleps", "cmpps", 2},      {"cmplepd", "cmppd", 2},
    {"cmpunordps", "cmpps", 3},   {"cmpunordpd", "cmppd", 3},   {"cmpneqps", "cmpps", 4},
    {"cmpneqpd", "cmppd", 4},     {"cmpnltps", "cmpps", 5},     {"cmpnltpd", "cmppd", 5},
    {"cmpnleps", "cmpps", 6},     {"cmpnlepd", "cmppd", 6},     {"cmpordps", "cmpps", 7},
    {"cmpordpd", "cmppd", 7},
    {"pslldqi128_byteshift", "pslldq", kArg1}, {"psrldqi128_byteshift", "psrldq", kArg1},
    {"shufps", "shufps", kArg2},  {"shufpd", "shufpd", kArg2},
    {"cvttps2dq", "cvttps2dq", 0}, {"cvttpd2dq", "cvttpd2dq", 0},
};

}  // namespace

NodeId FunctionBuilder::ia32_sse(const CallExpr* c, const std::string& rest) {
  const SseEntry* e = nullptr;
  for (const SseEntry& k : kSse)
    if (rest == k.builtin) e = &k;
  SourceLocation where = c->getExprLoc();
  if (!e || !is_vector(c->getType()) || types_.size(c->getType(), where) != kV128Bytes) return kNone;
  const V128OpInfo& info = kV128Ops[*v128_op(e->op)];
  bool unary = info.shape == V128Shape::Unary || info.shape == V128Shape::UnaryImm;
  unsigned vectors = unary ? 1 : 2;
  if (c->getNumArgs() < vectors) return kNone;
  for (unsigned i = 0; i < vectors; ++i)
    if (!is_vector(c->getArg(i)->getType()) || types_.size(c->getArg(i)->getType(), where) != kV128Bytes) return kNone;
  uint64_t imm = e->imm >= 0 ? static_cast<uint64_t>(e->imm) : 0;
  if (e->imm < 0) {
    unsigned i = e->imm == kArg1 ? 1 : 2;
    Expr::EvalResult r;
    if (c->getNumArgs() <= i) return kNone;
    if (!c->getArg(i)->EvaluateAsInt(r, ctx_)) {
      // A variable count (the header's _mm_slli_epi16 passes its int
      // parameter): the register form, psllw by a vector whose low 64 bits
      // are the count (a negative int is huge as those bits: every count
      // from the width up gives the same result, as the builtin's).
      if (info.shape != V128Shape::UnaryImm || info.mnemonic == info.name) return kNone;
      Loc l = loc(where);
      VectorShape shape = vector_shape(c->getType(), where);
      NodeId count = vector_temporary(shape, l);
      std::vector<NodeId> out;
      out.push_back(store(VType::I64, false, count,
                          convert(rvalue(c->getArg(1)), scalar(c->getArg(1)), {VType::I64, false}, l), l));
      out.push_back(store(VType::I64, false, offset(count, 8, l), constant(VType::I64, 0, l), l));
      std::string op(info.mnemonic);
      return seq(statements(out, l), vector_sse(op.c_str(), 0, shape, object(c->getArg(0)), count, l), l);
    }
    const llvm::APSInt& v = r.Val.getInt();
    // The immediate as the instruction reads it: the low 8 bits of a
    // selector (pshufd, shufps; shufpd's low 2); a count clamped to 255,
    // since every count from the lane's width up has one result.
    if (rest.find("shuf") != std::string::npos)
      imm = v.getExtValue() & (info.imm_limit - 1);
    else
      imm = v.isNegative() || v.getActiveBits() > 8 ? 255 : v.getZExtValue();
  }
  Loc l = loc(where);
  NodeId a = object(c->getArg(0));
  NodeId b = unary ? a : object(c->getArg(1));
  if (unary) {  // one operand: its address twice, evaluated once
    std::vector<NodeId> out;
    NodeId held = hold(VType::Ptr, a, out, l);
    NodeId r = vector_sse(e->op, imm, vector_shape(c->getType(), where), load(VType::Ptr, false, held, l),
                          load(VType::Ptr, false, held, l), l);
    return seq(statements(out, l), r, l);
  }
  return vector_sse(e->op, imm, vector_shape(c->getType(), where), a, b, l);
}

// __builtin_ia32_* (kIa32 above), __builtin_elementwise_min/max on integer
// vectors and __builtin_nontemporal_store; kNone for any other builtin.
std::vector<std::string> vector_builtin_names() {
  std::vector<std::string> out = {"__builtin_elementwise_max", "__builtin_elementwise_min", "__builtin_nontemporal_store"};
  for (const Ia32Entry& e : kIa32) out.push_back(std::string("__builtin_ia32_") + e.name);
  return out;
}

bool is_vector_builtin(const std::string& name) {
  if (name == "__builtin_elementwise_max" || name == "__builtin_elementwise_min" ||
      name == "__builtin_nontemporal_store")
    return true;
  const std::string prefix = "__builtin_ia32_";
  if (name.rfind(prefix, 0) != 0) return false;
  return std::any_of(std::begin(kIa32), std::end(kIa32),
                     [&](const Ia32Entry& e) { return name.compare(prefix.size(), std::string::npos, e.name) == 0; });
}

NodeId FunctionBuilder::ia32_builtin(const CallExpr* c, const std::string& name) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  Ia32 kind = Ia32::None;
  const char* detail = "";
  if (name == "__builtin_elementwise_max" || name == "__builtin_elementwise_min") {
    if (c->getNumArgs() != 2 || !is_vector(c->getType()) ||
        is_float(vector_shape(c->getType(), where).element.vt))
      unsupported(where, "builtin '" + name + "' on other than integer vectors");
    kind = name == "__builtin_elementwise_max" ? Ia32::Max : Ia32::Min;
  } else if (name == "__builtin_nontemporal_store") {  // (value, pointer): an ordinary store
    const Expr* value = c->getArg(0);
    QualType t = value->getType();
    NodeId dst = rvalue(c->getArg(1));
    if (Types::is_aggregate(t)) return copy(types_.size(t, where), 1, dst, object(value), l);
    return store(scalar(value).vt, false, dst, rvalue(value), l);
  } else {
    const std::string prefix = "__builtin_ia32_";
    if (name.rfind(prefix, 0) != 0) return kNone;
    std::string rest = name.substr(prefix.size());
    for (const Ia32Entry& e : kIa32)
      if (rest == e.name) kind = e.kind, detail = e.detail;
    if (kind == Ia32::None) unsupported(where, "builtin '" + name + "'");
    if (NodeId v = ia32_sse(c, rest); v != kNone) return v;
  }
  std::vector<NodeId> out;
  auto immediate = [&](unsigned i) -> int64_t {
    Expr::EvalResult r;
    if (!c->getArg(i)->EvaluateAsInt(r, ctx_)) unsupported(where, "builtin '" + name + "' with a variable immediate");
    return r.Val.getInt().getExtValue();
  };
  struct Arg {
    Pinned at;
    VectorShape shape;
  };
  std::deque<Arg> args;
  auto vector_arg = [&](unsigned i) -> Arg& {
    const Expr* a = c->getArg(i);
    args.push_back(Arg{pin(object(a), out, l), vector_shape(a->getType(), where)});
    return args.back();
  };
  auto get = [&](Arg& a, unsigned j) { return vector_element(a.at, a.shape, j, l); };
  auto cond = [&](VType t, NodeId test, NodeId yes, NodeId no) {
    return add(Op::AstCond, l, {Literal::string(vtype_name(t))}, {test, yes, no});
  };
  auto widen = [&](NodeId v, Scalar from, VType to, bool is_signed) {
    return convert(v, {from.vt, is_signed}, {to, is_signed}, l);
  };
  // v (an i32/i64 temporary) clamped to [lo, hi].
  auto clamp = [&](NodeId var, VType t, int64_t lo, int64_t hi) {
    auto v = [&] { return load(t, false, var, l); };
    NodeId high = cond(t, op("slt", t, l, constant(t, hi, l), v()), constant(t, hi, l), v());
    return cond(t, op("slt", t, l, v(), constant(t, lo, l)), constant(t, lo, l), high);
  };
  QualType result_type = c->getType();
  if (kind == Ia32::MoveMask || kind == Ia32::ExtractElt) {
    Arg& a = vector_arg(0);
    if (kind == Ia32::ExtractElt) {
      int64_t k = immediate(1) & (a.shape.count - 1);
      NodeId v = convert(get(a, static_cast<unsigned>(k)), a.shape.element, scalar(c), l);
      return seq(statements(out, l), v, l);
    }
    VType et = a.shape.element.vt;
    VType bits_type = is_float(et) ? (et == VType::F32 ? VType::I32 : VType::I64) : et;
    NodeId mask = constant(VType::I32, 0, l);
    for (unsigned j = 0; j < a.shape.count; ++j) {
      NodeId v = get(a, j);
      if (is_float(et)) v = conversion("bitcast", et, bits_type, l, v);
      NodeId sign = op("slt", bits_type, l, v, constant(bits_type, 0, l));
      mask = op("or", VType::I32, l, mask, op("shl", VType::I32, l, sign, constant(VType::I32, j, l)));
    }
    return seq(statements(out, l), mask, l);
  }
  VectorShape r = vector_shape(result_type, where);
  NodeId res = vector_temporary(r, l);
  auto put = [&](unsigned j, NodeId v) { out.push_back(store(r.element.vt, false, offset(res, j * r.step, l), v, l)); };
  auto done = [&] {
    for (Arg& a : args) settle(a.at, out);
    return seq(statements(out, l), res, l);
  };
  VType et = r.element.vt;
  switch (kind) {
    case Ia32::Undef: return vector_zero(result_type, l, where);
    case Ia32::AddSat:
    case Ia32::SubSat:
    case Ia32::AddUSat:
    case Ia32::SubUSat:
    case Ia32::Avg:
    case Ia32::MulHi:
    case Ia32::MulHiU:
    case Ia32::Max:
    case Ia32::Min: {
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      bool is_signed = kind == Ia32::AddSat || kind == Ia32::SubSat || kind == Ia32::MulHi ||
                       ((kind == Ia32::Max || kind == Ia32::Min) && a.shape.element.is_signed);
      unsigned bits = vtype_bits(et);
      VType w = bits <= 16 ? VType::I32 : VType::I64;
      for (unsigned j = 0; j < r.count; ++j) {
        NodeId x = hold(w, widen(get(a, j), a.shape.element, w, is_signed), out, l);
        NodeId y = hold(w, widen(get(b, j), b.shape.element, w, is_signed), out, l);
        auto X = [&] { return load(w, false, x, l); };
        auto Y = [&] { return load(w, false, y, l); };
        NodeId v = kNone;
        int64_t smax = (int64_t{1} << (bits - 1)) - 1, smin = -smax - 1, umax = (int64_t{1} << bits) - 1;
        switch (kind) {
          case Ia32::AddSat: v = clamp(hold(w, op("add", w, l, X(), Y()), out, l), w, smin, smax); break;
          case Ia32::SubSat: v = clamp(hold(w, op("sub", w, l, X(), Y()), out, l), w, smin, smax); break;
          case Ia32::AddUSat: v = clamp(hold(w, op("add", w, l, X(), Y()), out, l), w, 0, umax); break;
          case Ia32::SubUSat: v = clamp(hold(w, op("sub", w, l, X(), Y()), out, l), w, 0, umax); break;
          case Ia32::Avg: v = op("lshr", w, l, op("add", w, l, op("add", w, l, X(), Y()), constant(w, 1, l)), constant(w, 1, l)); break;
          case Ia32::MulHi:
          case Ia32::MulHiU:
            v = op(is_signed ? "ashr" : "lshr", w, l, op("mul", w, l, X(), Y()), constant(w, bits, l));
            break;
          case Ia32::Max:
          case Ia32::Min: {
            const char* less = is_signed ? "slt" : "ult";
            NodeId test = kind == Ia32::Max ? op(less, w, l, Y(), X()) : op(less, w, l, X(), Y());
            v = cond(w, test, X(), Y());
            break;
          }
          default: break;
        }
        put(j, convert(v, {w, is_signed}, r.element, l));
      }
      return done();
    }
    case Ia32::ShiftImm:
    case Ia32::ShiftVec: {
      Arg& a = vector_arg(0);
      unsigned bits = vtype_bits(et);
      // The count: the int operand, or the low 64 bits of the count vector;
      // unsigned, so a count above the width (or negative) shifts all out.
      NodeId count;
      if (kind == Ia32::ShiftImm) {
        count = hold(VType::I64, convert(rvalue(c->getArg(1)), scalar(c->getArg(1)), {VType::I64, false}, l), out, l);
      } else {
        Arg& b = vector_arg(1);
        count = hold(VType::I64, load(VType::I64, false, use(b.at, l), l), out, l);
      }
      std::string how = detail;
      auto n = [&] { return load(VType::I64, false, count, l); };
      NodeId big = hold(VType::I32, op("ult", VType::I64, l, constant(VType::I64, bits - 1, l), n()), out, l);
      NodeId shift = hold(et, convert(n(), {VType::I64, false}, {et, false}, l), out, l);
      VType w = work_type(et);
      for (unsigned j = 0; j < r.count; ++j) {
        NodeId x = widen(get(a, j), a.shape.element, w, how == "ashr");
        NodeId k = convert(load(et, false, shift, l), {et, false}, {w, false}, l);
        NodeId in_range = convert(op(how.c_str(), w, l, x, k), {w, true}, r.element, l);
        NodeId out_of_range;
        if (how == "ashr") {  // the sign everywhere
          NodeId y = widen(get(a, j), a.shape.element, w, true);
          out_of_range = convert(op("ashr", w, l, y, constant(w, vtype_bits(w) - 1, l)), {w, true}, r.element, l);
        } else {
          out_of_range = constant(et, 0, l);
        }
        put(j, cond(et, load(VType::I32, false, big, l), out_of_range, in_range));
      }
      return done();
    }
    case Ia32::PackSS:
    case Ia32::PackUS: {
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      unsigned bits = vtype_bits(et);
      VType w = VType::I32;
      int64_t lo = kind == Ia32::PackSS ? -(int64_t{1} << (bits - 1)) : 0;
      int64_t hi = kind == Ia32::PackSS ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
      for (unsigned j = 0; j < r.count; ++j) {
        Arg& from = j < a.shape.count ? a : b;
        unsigned k = j < a.shape.count ? j : j - a.shape.count;
        NodeId x = hold(w, widen(get(from, k), from.shape.element, w, true), out, l);
        put(j, convert(clamp(x, w, lo, hi), {w, true}, r.element, l));
      }
      return done();
    }
    case Ia32::Shuffle:
    case Ia32::ShuffleLow:
    case Ia32::ShuffleHigh: {
      Arg& a = vector_arg(0);
      int64_t imm = immediate(1);
      for (unsigned j = 0; j < r.count; ++j) {
        unsigned k = j;
        if (kind == Ia32::Shuffle) k = static_cast<unsigned>((imm >> (2 * j)) & 3);
        else if (kind == Ia32::ShuffleLow && j < 4) k = static_cast<unsigned>((imm >> (2 * j)) & 3);
        else if (kind == Ia32::ShuffleHigh && j >= 4) k = 4 + static_cast<unsigned>((imm >> (2 * (j - 4))) & 3);
        put(j, get(a, k));
      }
      return done();
    }
    case Ia32::ShufPs:
    case Ia32::ShufPd: {
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      int64_t imm = immediate(2);
      for (unsigned j = 0; j < r.count; ++j) {
        Arg& from = j < r.count / 2 ? a : b;
        unsigned k = kind == Ia32::ShufPs ? static_cast<unsigned>((imm >> (2 * j)) & 3)
                                          : static_cast<unsigned>((imm >> j) & 1);
        put(j, get(from, k));
      }
      return done();
    }
    case Ia32::Sad: {  // two sums of |a - b| over 8 bytes, in the low 16 bits of each i64
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      for (unsigned half = 0; half < 2; ++half) {
        NodeId sum = constant(VType::I64, 0, l);
        for (unsigned j = 0; j < 8; ++j) {
          NodeId x = hold(VType::I64, widen(get(a, 8 * half + j), a.shape.element, VType::I64, false), out, l);
          NodeId y = hold(VType::I64, widen(get(b, 8 * half + j), b.shape.element, VType::I64, false), out, l);
          auto X = [&] { return load(VType::I64, false, x, l); };
          auto Y = [&] { return load(VType::I64, false, y, l); };
          NodeId diff = cond(VType::I64, op("ult", VType::I64, l, X(), Y()), op("sub", VType::I64, l, Y(), X()),
                             op("sub", VType::I64, l, X(), Y()));
          sum = op("add", VType::I64, l, sum, diff);
        }
        put(half, convert(sum, {VType::I64, false}, r.element, l));
      }
      return done();
    }
    case Ia32::MAddWd: {
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      for (unsigned j = 0; j < r.count; ++j) {
        auto product = [&](unsigned k) {
          return op("mul", VType::I32, l, widen(get(a, k), a.shape.element, VType::I32, true),
                    widen(get(b, k), b.shape.element, VType::I32, true));
        };
        put(j, op("add", VType::I32, l, product(2 * j), product(2 * j + 1)));
      }
      return done();
    }
    case Ia32::MulUdq: {
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      for (unsigned j = 0; j < r.count; ++j)
        put(j, op("mul", VType::I64, l, widen(get(a, 2 * j), a.shape.element, VType::I64, false),
                  widen(get(b, 2 * j), b.shape.element, VType::I64, false)));
      return done();
    }
    case Ia32::FMax:
    case Ia32::FMin: {  // maxps: a > b ? a : b (b when either is NaN); minps: a < b ? a : b
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      for (unsigned j = 0; j < r.count; ++j) {
        NodeId test = op(kind == Ia32::FMax ? "fogt" : "folt", et, l, get(a, j), get(b, j));
        put(j, cond(et, test, get(a, j), get(b, j)));
      }
      return done();
    }
    case Ia32::FSqrt: {
      Arg& a = vector_arg(0);
      for (unsigned j = 0; j < r.count; ++j) put(j, op("fsqrt", et, l, get(a, j)));
      return done();
    }
    case Ia32::FCmp: {  // all ones or zero, in the float's bits
      Arg& a = vector_arg(0);
      Arg& b = vector_arg(1);
      VType bits_type = et == VType::F32 ? VType::I32 : VType::I64;
      for (unsigned j = 0; j < r.count; ++j) {
        NodeId bit = op(detail, et, l, get(a, j), get(b, j));
        NodeId mask = convert(op("neg", VType::I32, l, bit), {VType::I32, true}, {bits_type, true}, l);
        put(j, conversion("bitcast", bits_type, et, l, mask));
      }
      return done();
    }
    case Ia32::ByteShiftLeft:
    case Ia32::ByteShiftRight: {  // on 16 bytes (the result is 2 x i64 in clang's header)
      Arg& a = vector_arg(0);
      int64_t n = immediate(1);
      NodeId src = use(a.at, l);
      Pinned from = pin(src, out, l);
      for (unsigned j = 0; j < 16; ++j) {
        int64_t k = kind == Ia32::ByteShiftLeft ? static_cast<int64_t>(j) - n : static_cast<int64_t>(j) + n;
        NodeId v = k < 0 || k > 15 ? constant(VType::I8, 0, l)
                                   : load(VType::I8, false, offset(use(from, l), static_cast<uint64_t>(k), l), l);
        out.push_back(store(VType::I8, false, offset(res, j, l), v, l));
      }
      return done();
    }
    case Ia32::InsertElt: {
      Arg& a = vector_arg(0);
      NodeId v = hold(et, convert(rvalue(c->getArg(1)), scalar(c->getArg(1)), r.element, l), out, l);
      int64_t k = immediate(2) & (r.count - 1);
      for (unsigned j = 0; j < r.count; ++j)
        put(j, static_cast<int64_t>(j) == k ? load(et, false, v, l) : get(a, j));
      return done();
    }
    case Ia32::TruncToInt: {  // cvttps2dq, cvttpd2dq (the upper two zero)
      Arg& a = vector_arg(0);
      // An out-of-range or NaN element gives the integer indefinite,
      // 0x80000000, as the instruction does (C's conversion would be undefined).
      VType ft = a.shape.element.vt;
      for (unsigned j = 0; j < r.count; ++j) {
        if (j >= a.shape.count) {
          put(j, constant(et, 0, l));
          continue;
        }
        NodeId x = hold(ft, get(a, j), out, l);
        NodeId fits = op("folt", ft, l, op("fabs", ft, l, load(ft, false, x, l)), float_constant(ft, 2147483648.0, l));
        put(j, cond(et, fits, convert(load(ft, false, x, l), a.shape.element, r.element, l),
                    constant(et, INT32_MIN, l)));
      }
      return done();
    }
    default: break;
  }
  unsupported(where, "builtin '" + name + "'");
}

}  // namespace pl::c2ast
