// complex.cpp - _Complex float, _Complex double, _Complex long double and
// GNU C's _Complex integer types (issues 18 and 19), as gcc compiles them
// on x86-64.
//
// Representation: `_Complex T` is an aggregate of two T, the real part at
// offset 0 and the imaginary part at sizeof(T): size 2*sizeof(T), alignment
// that of T, exactly gcc's layout. Types::is_aggregate counts it, so a
// complex value travels everywhere as `struct { T re, im; }` does: a local
// is an `ast:var` of that size, a complex rvalue is the address of its
// storage, assignment is an `ast:copy`, arguments and results are `ptr
// byval(...)`/`ptr sret(...)` with the System V classification of the two
// scalars (types.cpp flatten_scalars -> abi.h classify_aggregate: a
// _Complex float is one SSE eightbyte, both floats in xmm0's low 8 bytes;
// a _Complex double two, xmm0 and xmm1; a _Complex int one INTEGER
// eightbyte; a _Complex long double, 32 bytes aligned to 16, is COMPLEX_X87,
// `c`: in memory as an argument, in st(0) and st(1) as a result), and
// through `...` and va_arg likewise. Globals and constants
// are written part by part (data.cpp, APValue::ComplexFloat/ComplexInt).
//
// Operations are lowered here onto the element type's scalar operations:
// each operand's parts are loaded once into scalar temporaries (`ast:var`s
// whose address is never taken, so ast2cfg makes them SSA values), the
// result's parts are computed from them, and a complex result is stored
// into a fresh `.complex` variable whose address is the expression's value.
// sonopt's scalar replacement then turns those variables, and complex
// locals, into registers at -O2. A long double part is no IR value
// (long_double.cpp): its temporary holds the address of a 16-byte `.ld`
// object, a copy of the part read from the complex object or a fresh
// result of an ast:f80 operation, never changed once written but by the
// multiplication's recovery below, so a part never aliases an object the
// expression could change before reading it. The rules are gcc's (C11 Annex G and
// gcc's c-typeck.cc / tree-complex.cc):
//
//   - with one real operand, + - * and `/ real` work part by part, the real
//     operand's imaginary part being absent, not zero (so (+0.0) - z keeps
//     the sign of -imag z: gcc negates it, and x * z is (x*a, x*b), never
//     NaN from 0 * inf); clang keeps the real operand real, converted to
//     the element type, which is what gcc does;
//   - complex * complex of floating type: gcc's inline fast path
//     (ac - bd, ad + bc) and, only when both parts are NaN, libgcc's
//     __mulsc3/__muldc3/__mulxc3 (C99 Annex G's recovery of infinities),
//     which compute the same fast path first: the same bits as gcc -O0,
//     which always calls (gcc -O2 calls when either part is NaN: the
//     helper then returns the fast path's parts unless both are); long
//     double parts round each product and sum to the x87's 64-bit
//     mantissa, as gcc's x87 code does;
//   - complex / complex (and real / complex) of floating type: a call of
//     libgcc's __divsc3/__divdc3/__divxc3, as gcc does at every level;
//   - integer complex *: (ac - bd, ad + bc); integer complex /: gcc's
//     expand_complex_div_wide (Smith's method with truncating division,
//     choosing by |c| < |d|);
//   - unary -: both parts negated; ~ (GNU): the conjugate; == and !=: both
//     parts compared (!= is true for a NaN part); a truth test (`if (z)`,
//     `!z`, `&&`, conversion to _Bool) is `re != 0 || im != 0`;
//   - conversions: complex to complex part by part; real to complex: the
//     imaginary part 0; complex to real: the real part (the imaginary part
//     is not read unless the operand is an rvalue computed anyway);
//   - `__real__ z` and `__imag__ z` are lvalues at offsets 0 and sizeof(T)
//     of z's storage (so `&__real__ z` and `__imag__ z = x` work); on a
//     real operand `__real__ x` is x and `__imag__ x` is 0 (x evaluated);
//   - creal, cimag, conj (and f, l, __builtin_ forms) inline; __builtin_complex;
//     imaginary literals (`2.0i`, `1.0fi`, GNU `I` in <complex.h>);
//   - compound assignment (either side complex), ++ and -- (the real part).
// Complex types of elements c2ast refuses (__int128, _Float16, ...) stop
// with "unsupported: complex type ..." (Types::check). pipe-run computes
// libgcc's six helpers itself (stages/pipe-run/complex_math.cpp).
#include "c2ast.h"

#include <clang/Basic/Builtins.h>

namespace pl::c2ast {

using namespace clang;

namespace {

bool is_complex(QualType t) { return t->isAnyComplexType(); }

// The bytes of one part: a long double part is a 16-byte object.
uint64_t part_bytes(VType t) { return t == VType::F80 ? 16 : vtype_bits(t) / 8; }

// Expressions of complex type whose parts complex_parts computes itself
// (all others are evaluated to the address of their storage: lvalues,
// calls, ?:, assignments, statement expressions, va_arg ...).
bool computed_in_parts(const Expr* e) {
  e = e->IgnoreParens();
  if (isa<ImaginaryLiteral>(e) || isa<ImplicitValueInitExpr>(e)) return true;
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    switch (c->getCastKind()) {
      case CK_FloatingRealToComplex:
      case CK_IntegralRealToComplex:
      case CK_FloatingComplexCast:
      case CK_IntegralComplexCast:
      case CK_FloatingComplexToIntegralComplex:
      case CK_IntegralComplexToFloatingComplex: return true;
      case CK_NoOp: return e->isPRValue() && computed_in_parts(c->getSubExpr());
      default: return false;
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    switch (u->getOpcode()) {
      case UO_Minus:
      case UO_Not: return true;
      case UO_Plus:
      case UO_Extension: return e->isPRValue();
      default: return false;
    }
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    switch (b->getOpcode()) {
      case BO_Add:
      case BO_Sub:
      case BO_Mul:
      case BO_Div: return !isa<CompoundAssignOperator>(b);
      default: return false;
    }
  }
  return false;
}

}  // namespace

FunctionBuilder::Pinned FunctionBuilder::pin(NodeId address, std::vector<NodeId>& out, Loc l) {
  if (duplicable(address)) return Pinned{address, kNone, false};
  return Pinned{kNone, hold(VType::Ptr, address, out, l), false};
}

NodeId FunctionBuilder::use(Pinned& p, Loc l) {
  if (p.var != kNone) return load(VType::Ptr, false, p.var, l);
  if (!p.used) {
    p.used = true;
    return p.tree;
  }
  return clone(p.tree);
}

NodeId FunctionBuilder::complex_zero(Scalar element, Loc l) {
  if (element.vt == VType::F80) return f80_constant(0.0L, l);
  return is_float(element.vt) ? float_constant(element.vt, 0.0, l) : constant(element.vt, 0, l);
}

NodeId FunctionBuilder::real_part_value(const Expr* e, Scalar element, Loc l) {
  Scalar from = scalar(e);
  NodeId v = convert(rvalue(e), from, element, l);
  // A long double's value is its object's address: a part holds a copy,
  // as a part read from a complex object does (complex_parts_at).
  if (from.vt == VType::F80 && element.vt == VType::F80) v = f80_copy(f80_temp(l), v, l);
  return v;
}

NodeId FunctionBuilder::negate(Scalar element, NodeId v, Loc l) {
  if (element.vt == VType::F80) return f80_unary("neg", v, l);
  return op(is_float(element.vt) ? "fneg" : "neg", element.vt, l, v);
}

FunctionBuilder::ComplexParts FunctionBuilder::complex_parts_at(NodeId address, Scalar element, bool is_volatile,
                                                              std::vector<NodeId>& out, Loc l) {
  Pinned at = pin(address, out, l);
  uint64_t step = part_bytes(element.vt);
  if (element.vt == VType::F80) {  // each part copied: the object may change before the part is read
    NodeId re = hold(VType::F80, f80_copy(f80_temp(l), use(at, l), l), out, l);
    NodeId im = hold(VType::F80, f80_copy(f80_temp(l), offset(use(at, l), step, l), l), out, l);
    return {re, im};
  }
  NodeId re = hold(element.vt, load(element.vt, is_volatile, use(at, l), l), out, l);
  NodeId im = hold(element.vt, load(element.vt, is_volatile, offset(use(at, l), step, l), l), out, l);
  return {re, im};
}

void FunctionBuilder::complex_store(NodeId address, ComplexParts p, Scalar element, std::vector<NodeId>& out, Loc l) {
  Pinned at = pin(address, out, l);
  uint64_t step = part_bytes(element.vt);
  if (element.vt == VType::F80) {
    out.push_back(f80_copy(use(at, l), load(VType::F80, false, p.re, l), l));
    NodeId im = p.im == kNone ? complex_zero(element, l) : load(VType::F80, false, p.im, l);
    out.push_back(f80_copy(offset(use(at, l), step, l), im, l));
    return;
  }
  out.push_back(store(element.vt, false, use(at, l), load(element.vt, false, p.re, l), l));
  NodeId im = p.im == kNone ? complex_zero(element, l) : load(element.vt, false, p.im, l);
  out.push_back(store(element.vt, false, offset(use(at, l), step, l), im, l));
}

NodeId FunctionBuilder::complex_value(ComplexParts p, Scalar element, std::vector<NodeId>& out, Loc l) {
  uint64_t step = part_bytes(element.vt);
  NodeId var = variable(".complex", 2 * step, static_cast<uint32_t>(step), l);
  complex_store(var, p, element, out, l);
  return seq(statements(out, l), var, l);
}

FunctionBuilder::ComplexParts FunctionBuilder::complex_parts(const Expr* e, Scalar element, std::vector<NodeId>& out) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  QualType t = e->getType();
  if (!is_complex(t)) {  // a real operand: its imaginary part is absent
    NodeId v = real_part_value(e, element, l);
    return {hold(element.vt, v, out, l), kNone};
  }
  Scalar own = types_.complex_element(t, where);
  ComplexParts p;
  deep([&] {
    p = complex_own_parts(e, own, out);
    return kNone;
  });
  if (own.vt == element.vt && own.is_signed == element.is_signed) return p;
  auto converted = [&](NodeId var) {
    if (var == kNone) return kNone;
    return hold(element.vt, convert(load(own.vt, false, var, l), own, element, l), out, l);
  };
  return {converted(p.re), converted(p.im)};
}

// The parts of a complex-typed expression, in its own element type `own`.
FunctionBuilder::ComplexParts FunctionBuilder::complex_own_parts(const Expr* e, Scalar own, std::vector<NodeId>& out) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  auto keep = [&](NodeId v) { return hold(own.vt, v, out, l); };
  if (const auto* p = dyn_cast<ParenExpr>(e)) return complex_own_parts(p->getSubExpr(), own, out);
  if (e->isGLValue())
    return complex_parts_at(address(e), own, e->getType().isVolatileQualified(), out, l);
  if (isa<ImplicitValueInitExpr>(e)) return {keep(complex_zero(own, l)), keep(complex_zero(own, l))};
  if (const auto* i = dyn_cast<ImaginaryLiteral>(e)) {
    const Expr* sub = i->getSubExpr();
    NodeId im = keep(convert(rvalue(sub), scalar(sub), own, l));
    return {keep(complex_zero(own, l)), im};
  }
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    const Expr* sub = c->getSubExpr();
    switch (c->getCastKind()) {
      case CK_LValueToRValue:
        return complex_parts_at(address(sub), own, sub->getType().isVolatileQualified(), out, l);
      case CK_FloatingRealToComplex:
      case CK_IntegralRealToComplex: {
        NodeId re = keep(real_part_value(sub, own, l));
        return {re, keep(complex_zero(own, l))};
      }
      case CK_NoOp:
      case CK_FloatingComplexCast:
      case CK_IntegralComplexCast:
      case CK_FloatingComplexToIntegralComplex:
      case CK_IntegralComplexToFloatingComplex: return complex_parts(sub, own, out);
      default: break;
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    const Expr* sub = u->getSubExpr();
    switch (u->getOpcode()) {
      case UO_Plus:
      case UO_Extension: return complex_parts(sub, own, out);
      case UO_Minus:
      case UO_Not: {
        ComplexParts p = complex_parts(sub, own, out);
        auto negated = [&](NodeId var) { return keep(negate(own, load(own.vt, false, var, l), l)); };
        NodeId re = u->getOpcode() == UO_Minus ? negated(p.re) : p.re;
        NodeId im = p.im == kNone ? keep(complex_zero(own, l)) : p.im;
        return {re, negated(im)};
      }
      default: break;
    }
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && !isa<CompoundAssignOperator>(b)) {
    switch (b->getOpcode()) {
      case BO_Add:
      case BO_Sub:
      case BO_Mul:
      case BO_Div: {
        ComplexParts x = complex_parts(b->getLHS(), own, out);
        ComplexParts y = complex_parts(b->getRHS(), own, out);
        ComplexParts r = complex_arithmetic(b->getOpcode(), x, y, own, out, l);
        if (r.im == kNone) r.im = keep(complex_zero(own, l));
        return r;
      }
      default: break;
    }
  }
  // Anything else has storage: a call's result, ?:, an assignment, ...
  NodeId address = rvalue(e);
  return complex_parts_at(address, own, false, out, l);
}

// x OP y on parts in the element type (either may be a real operand).
FunctionBuilder::ComplexParts FunctionBuilder::complex_arithmetic(BinaryOperatorKind opcode, ComplexParts x,
                                                                ComplexParts y, Scalar element,
                                                                std::vector<NodeId>& out, Loc l) {
  VType t = element.vt;
  bool floating = is_float(t) || t == VType::F80;
  auto get = [&](NodeId var) { return load(t, false, var, l); };
  auto keep = [&](NodeId v) { return hold(t, v, out, l); };
  auto bin = [&](BinaryOperatorKind k, NodeId a, NodeId b) {
    if (t == VType::F80) {  // long double: into a fresh temporary (long_double.cpp)
      const char* f80 = k == BO_Add ? "add" : k == BO_Sub ? "sub" : k == BO_Mul ? "mul" : "div";
      return f80_arith(f80, a, b, l);
    }
    const char* name = nullptr;
    switch (k) {
      case BO_Add: name = floating ? "fadd" : "add"; break;
      case BO_Sub: name = floating ? "fsub" : "sub"; break;
      case BO_Mul: name = floating ? "fmul" : "mul"; break;
      default: name = floating ? "fdiv" : element.is_signed ? "sdiv" : "udiv"; break;
    }
    return op(name, t, l, a, b);
  };
  auto neg = [&](NodeId a) { return negate(element, a, l); };
  auto unordered = [&](NodeId var) {
    return t == VType::F80 ? f80_compare("funo", get(var), get(var), l) : op("funo", t, l, get(var), get(var));
  };
  // libgcc's helpers by the element type: __mulsc3, __muldc3, __mulxc3 ...
  auto helper = [&](const char* op_name) {
    return std::string("__") + op_name + (t == VType::F32 ? "sc3" : t == VType::F64 ? "dc3" : "xc3");
  };
  switch (opcode) {
    case BO_Add:
    case BO_Sub: {
      NodeId re = keep(bin(opcode, get(x.re), get(y.re)));
      NodeId im = kNone;
      if (x.im != kNone && y.im != kNone) im = keep(bin(opcode, get(x.im), get(y.im)));
      else if (x.im != kNone) im = x.im;
      else if (y.im != kNone) im = opcode == BO_Add ? y.im : keep(neg(get(y.im)));
      return {re, im};
    }
    case BO_Mul: {
      if (x.im == kNone || y.im == kNone) {  // part by part
        NodeId scale = x.im == kNone ? x.re : y.re;
        ComplexParts z = x.im == kNone ? y : x;
        return {keep(bin(BO_Mul, get(z.re), get(scale))), keep(bin(BO_Mul, get(z.im), get(scale)))};
      }
      NodeId re = keep(bin(BO_Sub, bin(BO_Mul, get(x.re), get(y.re)), bin(BO_Mul, get(x.im), get(y.im))));
      NodeId im = keep(bin(BO_Add, bin(BO_Mul, get(x.re), get(y.im)), bin(BO_Mul, get(x.im), get(y.re))));
      if (!floating) return {re, im};
      // Both parts NaN: libgcc recovers the infinities C99 Annex G asks for.
      NodeId both_nan = add(Op::AstAnd, l, {}, {unordered(re), unordered(im)});
      std::vector<NodeId> recover;
      ComplexParts r = complex_libcall(helper("mul").c_str(), x, y, element, recover, l);
      if (t == VType::F80) {  // into the temporaries re and im point to
        recover.push_back(f80_copy(get(re), get(r.re), l));
        recover.push_back(f80_copy(get(im), get(r.im), l));
      } else {
        recover.push_back(store(t, false, re, get(r.re), l));
        recover.push_back(store(t, false, im, get(r.im), l));
      }
      out.push_back(add(Op::AstIf, l, {}, {both_nan, block(recover, l)}));
      return {re, im};
    }
    default: break;
  }
  // Division.
  if (y.im == kNone) {  // by a real: part by part
    NodeId re = keep(bin(BO_Div, get(x.re), get(y.re)));
    NodeId im = x.im == kNone ? kNone : keep(bin(BO_Div, get(x.im), get(y.re)));
    return {re, im};
  }
  if (x.im == kNone) x.im = keep(complex_zero(element, l));
  if (floating) return complex_libcall(helper("div").c_str(), x, y, element, out, l);
  // gcc's expand_complex_div_wide on integers (a + bi) / (c + di):
  //   |c| < |d|: ratio = c/d, div = c*ratio + d, re = (a*ratio + b)/div, im = (b*ratio - a)/div
  //   else:      ratio = d/c, div = d*ratio + c, re = (b*ratio + a)/div, im = (b - a*ratio)/div
  auto magnitude = [&](NodeId var) {
    if (!element.is_signed) return get(var);
    NodeId negative = op("slt", t, l, get(var), constant(t, 0, l));
    return add(Op::AstCond, l, {Literal::string(vtype_name(t))}, {negative, neg(get(var)), get(var)});
  };
  NodeId c_small = hold(VType::I32, op(element.is_signed ? "slt" : "ult", t, l, magnitude(y.re), magnitude(y.im)), out, l);
  auto pick = [&](NodeId yes, NodeId no) {
    return keep(add(Op::AstCond, l, {Literal::string(vtype_name(t))}, {load(VType::I32, false, c_small, l), yes, no}));
  };
  NodeId a = x.re, b = x.im, c = y.re, d = y.im;
  NodeId ratio = pick(bin(BO_Div, get(c), get(d)), bin(BO_Div, get(d), get(c)));
  NodeId div = pick(bin(BO_Add, bin(BO_Mul, get(c), get(ratio)), get(d)),
                    bin(BO_Add, bin(BO_Mul, get(d), get(ratio)), get(c)));
  NodeId re = pick(bin(BO_Add, bin(BO_Mul, get(a), get(ratio)), get(b)),
                   bin(BO_Add, bin(BO_Mul, get(b), get(ratio)), get(a)));
  NodeId im = pick(bin(BO_Sub, bin(BO_Mul, get(b), get(ratio)), get(a)),
                   bin(BO_Sub, get(b), bin(BO_Mul, get(a), get(ratio))));
  return {keep(bin(BO_Div, get(re), get(div))), keep(bin(BO_Div, get(im), get(div)))};
}

// A call of libgcc's __mulsc3/__muldc3/__mulxc3/__divsc3/__divdc3/__divxc3
// (a, b, c, d), which return the complex result in registers (xmm0, and
// xmm1 for double; st(0) and st(1) for long double, whose arguments are in
// memory: `ptr byval(16,16,x)`).
FunctionBuilder::ComplexParts FunctionBuilder::complex_libcall(const char* name, ComplexParts x, ComplexParts y,
                                                             Scalar element, std::vector<NodeId>& out, Loc l) {
  VType t = element.vt;
  QualType real = t == VType::F32 ? ctx_.FloatTy : t == VType::F64 ? ctx_.DoubleTy : ctx_.LongDoubleTy;
  QualType complex = ctx_.getComplexType(real);
  QualType type = ctx_.getFunctionType(complex, {real, real, real, real}, FunctionProtoType::ExtProtoInfo());
  SourceLocation where = fd_->getLocation();
  std::string symbol = module_.library_function(name, type, where);
  uint64_t step = part_bytes(t);
  NodeId result = variable(".complex", 2 * step, static_cast<uint32_t>(step), l);
  std::vector<std::string> params{types_.result_pointer(complex, where)};
  for (int i = 0; i < 4; ++i) params.push_back(types_.param_type(real, where));
  InputList inputs{symaddr(symbol, l), result};
  for (NodeId part : {x.re, x.im, y.re, y.im}) inputs.push_back(load(t, false, part, l));
  out.push_back(add(Op::AstCall, l, {Literal::string("void"), Literal::string(param_list_string(params, false))},
                    std::move(inputs)));
  return complex_parts_at(result, element, false, out, l);
}

// ---- expressions with a complex operand -------------------------------------------------

NodeId FunctionBuilder::complex_truth(const Expr* e) {
  Loc l = loc(e->getExprLoc());
  Scalar element = types_.complex_element(e->getType(), e->getExprLoc());
  std::vector<NodeId> out;
  ComplexParts p = complex_parts(e, element, out);
  auto nonzero = [&](NodeId var) {
    NodeId v = load(element.vt, false, var, l);
    return is_float(element.vt) || element.vt == VType::F80 ? truth(v, element.vt, l) : op("ne", element.vt, l, v, constant(element.vt, 0, l));
  };
  NodeId either = op("or", VType::I32, l, nonzero(p.re), nonzero(p.im));
  return seq(statements(out, l), either, l);
}

NodeId FunctionBuilder::complex_compare(const BinaryOperator* b) {
  Loc l = loc(b->getOperatorLoc());
  const Expr* lhs = b->getLHS();
  const Expr* rhs = b->getRHS();
  QualType ct = is_complex(lhs->getType()) ? lhs->getType() : rhs->getType();
  Scalar element = types_.complex_element(ct, b->getExprLoc());
  std::vector<NodeId> out;
  ComplexParts x = complex_parts(lhs, element, out);
  ComplexParts y = complex_parts(rhs, element, out);
  bool equal = b->getOpcode() == BO_EQ;
  VType t = element.vt;
  const char* name = is_float(t) ? (equal ? "foeq" : "fune") : (equal ? "eq" : "ne");
  auto part = [&](NodeId var) { return var == kNone ? complex_zero(element, l) : load(t, false, var, l); };
  auto compare = [&](NodeId a, NodeId b) {
    return t == VType::F80 ? f80_compare(equal ? "foeq" : "fune", a, b, l) : op(name, t, l, a, b);
  };
  NodeId re = compare(part(x.re), part(y.re));
  NodeId im = compare(part(x.im), part(y.im));
  return seq(statements(out, l), op(equal ? "and" : "or", VType::I32, l, re, im), l);
}

NodeId FunctionBuilder::complex_part_address(const UnaryOperator* u) {
  const Expr* sub = u->getSubExpr();
  NodeId a = address(sub);
  if (!is_complex(sub->getType()) || u->getOpcode() == UO_Real) return a;
  Scalar element = types_.complex_element(sub->getType(), u->getExprLoc());
  return offset(a, part_bytes(element.vt), loc(u->getExprLoc()));
}

// `z op= w`, and `x op= w` for a real x and a complex w.
NodeId FunctionBuilder::complex_compound_assignment(const CompoundAssignOperator* e) {
  SourceLocation where = e->getOperatorLoc();
  Loc l = loc(where);
  const Expr* lhs = e->getLHS();
  QualType t = lhs->getType();
  bool is_volatile = t.isVolatileQualified();
  QualType result_type = e->getComputationResultType();
  Scalar element = is_complex(result_type) ? types_.complex_element(result_type, where) : types_.scalar(result_type, where);
  std::vector<NodeId> out;
  // The right operand first, as clang's CodeGen (expressions.cpp,
  // compound_right_operand): its parts are held in temporaries.
  ComplexParts y = complex_parts(e->getRHS(), element, out);
  TwoUses at = address_twice(lhs, l);
  if (at.setup != kNone) out.push_back(at.setup);
  ComplexParts x;
  if (is_complex(t)) {
    Scalar own = types_.complex_element(t, where);
    x = complex_parts_at(at.first, own, is_volatile, out, l);
    if (own.vt != element.vt || own.is_signed != element.is_signed) {
      x.re = hold(element.vt, convert(load(own.vt, false, x.re, l), own, element, l), out, l);
      x.im = hold(element.vt, convert(load(own.vt, false, x.im, l), own, element, l), out, l);
    }
  } else {
    Scalar s = scalar(lhs);
    NodeId old = s.vt == VType::F80 ? f80_copy(f80_temp(l), at.first, l) : lvalue_load(lhs, s.vt, is_volatile, at.first, l);
    x = {hold(element.vt, convert(old, s, element, l), out, l), kNone};
  }
  BinaryOperatorKind opcode = BinaryOperator::getOpForCompoundAssignment(e->getOpcode());
  ComplexParts r = complex_arithmetic(opcode, x, y, element, out, l);
  if (is_complex(t)) {
    Scalar own = types_.complex_element(t, where);
    auto back = [&](NodeId var) {
      NodeId v = var == kNone ? complex_zero(element, l) : load(element.vt, false, var, l);
      return hold(own.vt, convert(v, element, own, l), out, l);
    };
    ComplexParts stored{back(r.re), back(r.im)};
    Pinned dst = pin(at.second, out, l);
    uint64_t step = part_bytes(own.vt);
    if (own.vt == VType::F80) {
      complex_store(use(dst, l), stored, own, out, l);
    } else {
      out.push_back(store(own.vt, is_volatile, use(dst, l), load(own.vt, false, stored.re, l), l));
      out.push_back(store(own.vt, is_volatile, offset(use(dst, l), step, l), load(own.vt, false, stored.im, l), l));
    }
    return complex_value(stored, own, out, l);
  }
  // A real left operand keeps the real part.
  Scalar s = scalar(lhs);
  NodeId real = load(element.vt, false, r.re, l);
  NodeId value = t->isBooleanType() ? to_bool(real, element.vt, l) : convert(real, element, s, l);
  NodeId assigned = s.vt == VType::F80 ? f80_copy(at.second, value, l)
                                       : lvalue_store(lhs, s.vt, is_volatile, at.second, value, l);
  return seq(statements(out, l), assigned, l);
}

// ++z, z--, ...: the real part steps by 1 (GNU C).
NodeId FunctionBuilder::complex_increment(const UnaryOperator* u, bool value_used) {
  SourceLocation where = u->getOperatorLoc();
  Loc l = loc(where);
  const Expr* lhs = u->getSubExpr();
  QualType t = lhs->getType();
  bool is_volatile = t.isVolatileQualified();
  Scalar element = types_.complex_element(t, where);
  VType vt = element.vt;
  std::vector<NodeId> out;
  Pinned at = pin(address(lhs), out, l);
  ComplexParts old = complex_parts_at(use(at, l), element, is_volatile, out, l);
  bool up = u->isIncrementOp();
  if (vt == VType::F80) {
    NodeId re = hold(vt, f80_arith(up ? "add" : "sub", load(vt, false, old.re, l), f80_constant(1.0L, l), l), out, l);
    out.push_back(f80_copy(use(at, l), load(vt, false, re, l), l));
    if (!value_used) return statements(out, l);
    return complex_value(u->isPostfix() ? old : ComplexParts{re, old.im}, element, out, l);
  }
  NodeId one = is_float(vt) ? float_constant(vt, 1.0, l) : constant(vt, 1, l);
  const char* name = is_float(vt) ? (up ? "fadd" : "fsub") : (up ? "add" : "sub");
  NodeId re = hold(vt, op(name, vt, l, load(vt, false, old.re, l), one), out, l);
  out.push_back(store(vt, is_volatile, use(at, l), load(vt, false, re, l), l));
  if (!value_used) return statements(out, l);
  ComplexParts value = u->isPostfix() ? old : ComplexParts{re, old.im};
  return complex_value(value, element, out, l);
}

NodeId FunctionBuilder::complex_expression(const Expr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  QualType t = e->getType();
  if (const auto* c = dyn_cast<CompoundAssignOperator>(e)) {
    if (is_complex(c->getLHS()->getType()) || is_complex(c->getRHS()->getType())) return complex_compound_assignment(c);
    return kNone;
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    const Expr* sub = u->getSubExpr();
    if (u->isIncrementDecrementOp() && is_complex(sub->getType())) return complex_increment(u, true);
    if (u->getOpcode() == UO_LNot && is_complex(sub->getType()))
      return op("eq", VType::I32, l, complex_truth(sub), constant(VType::I32, 0, l));
    if (u->getOpcode() == UO_Real || u->getOpcode() == UO_Imag) {  // of an rvalue
      bool imag = u->getOpcode() == UO_Imag;
      if (!is_complex(sub->getType())) {
        if (!imag) return rvalue(sub);
        NodeId effect = discard(sub, false);
        return seq(effect, complex_zero(scalar(u), l), l);
      }
      Scalar element = types_.complex_element(sub->getType(), where);
      std::vector<NodeId> out;
      ComplexParts p = complex_parts(sub, element, out);
      return seq(statements(out, l), load(element.vt, false, imag ? p.im : p.re, l), l);
    }
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind k = b->getOpcode();
    bool complex_operand = is_complex(b->getLHS()->getType()) || is_complex(b->getRHS()->getType());
    if (complex_operand && (k == BO_EQ || k == BO_NE)) return complex_compare(b);
    if (complex_operand && (k == BO_LAnd || k == BO_LOr))
      return add(k == BO_LAnd ? Op::AstAnd : Op::AstOr, l, {}, {condition(b->getLHS()), condition(b->getRHS())});
  }
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    const Expr* sub = c->getSubExpr();
    switch (c->getCastKind()) {
      case CK_FloatingComplexToReal:
      case CK_IntegralComplexToReal: {
        Scalar element = types_.complex_element(sub->getType(), where);
        if (sub->isGLValue() && element.vt == VType::F80) return f80_copy(f80_temp(l), address(sub), l);
        if (sub->isGLValue())  // only the real part is read
          return load(element.vt, sub->getType().isVolatileQualified(), address(sub), l);
        std::vector<NodeId> out;
        ComplexParts p = complex_parts(sub, element, out);
        return seq(statements(out, l), load(element.vt, false, p.re, l), l);
      }
      case CK_FloatingComplexToBoolean:
      case CK_IntegralComplexToBoolean:
        return conversion("trunc", VType::I32, VType::I8, l, complex_truth(sub));
      default: break;
    }
  }
  if (!is_complex(t) || !computed_in_parts(e)) return kNone;
  Scalar element = types_.complex_element(t, where);
  std::vector<NodeId> out;
  ComplexParts p = complex_parts(e, element, out);
  return complex_value(p, element, out, l);
}

// creal, cimag, conj (and their f and __builtin_ forms), __builtin_complex;
// kNone for any other builtin.
namespace {

constexpr const char* kRealBuiltins[] = {"creal", "crealf", "creall", "__builtin_creal", "__builtin_crealf",
                                         "__builtin_creall"};
constexpr const char* kImagBuiltins[] = {"cimag", "cimagf", "cimagl", "__builtin_cimag", "__builtin_cimagf",
                                         "__builtin_cimagl"};
constexpr const char* kConjBuiltins[] = {"conj", "conjf", "conjl", "__builtin_conj", "__builtin_conjf",
                                         "__builtin_conjl"};

bool among(const std::string& name, const char* const (&names)[6]) {
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

}  // namespace

bool is_complex_builtin(const std::string& name) {
  return name == "__builtin_complex" || among(name, kRealBuiltins) || among(name, kImagBuiltins) ||
         among(name, kConjBuiltins);
}

NodeId FunctionBuilder::complex_builtin(const CallExpr* c, const std::string& name) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  std::vector<NodeId> out;
  if (name == "__builtin_complex") {
    Scalar element = types_.complex_element(c->getType(), where);
    NodeId re = hold(element.vt, convert(rvalue(c->getArg(0)), scalar(c->getArg(0)), element, l), out, l);
    NodeId im = hold(element.vt, convert(rvalue(c->getArg(1)), scalar(c->getArg(1)), element, l), out, l);
    return complex_value({re, im}, element, out, l);
  }
  bool real = among(name, kRealBuiltins), imag = among(name, kImagBuiltins), conj = among(name, kConjBuiltins);
  if (!real && !imag && !conj) return kNone;
  if (c->getNumArgs() != 1) unsupported(where, "builtin '" + name + "' without one argument");
  const Expr* arg = c->getArg(0);
  QualType complex_type = conj ? c->getType() : ctx_.getComplexType(c->getType());
  Scalar element = types_.complex_element(complex_type, where);
  ComplexParts p = complex_parts(arg, element, out);
  if (p.im == kNone) p.im = hold(element.vt, complex_zero(element, l), out, l);
  if (real || imag) return seq(statements(out, l), load(element.vt, false, real ? p.re : p.im, l), l);
  NodeId im = hold(element.vt, negate(element, load(element.vt, false, p.im, l), l), out, l);
  return complex_value({p.re, im}, element, out, l);
}

// A complex object at `var` + `at` initialized from `init`: an expression
// or `{x}`. For `{x, y}` clang's extension makes y the imaginary part; gcc
// reads it as a scalar initializer with an excess element, which it drops
// (unevaluated): x + 0i, as here (data.cpp does the same for globals).
void FunctionBuilder::initialize_complex(NodeId var, uint64_t at, QualType type, const Expr* init,
                                         std::vector<NodeId>& out) {
  SourceLocation where = init->getExprLoc();
  Loc l = loc(where);
  Scalar element = types_.complex_element(type, where);
  const auto* list = dyn_cast<InitListExpr>(init->IgnoreParens());
  ComplexParts p = complex_parts(list && list->getNumInits() >= 1 ? list->getInit(0) : init, element, out);
  complex_store(offset(var, at, l), p, element, out, l);
}

}  // namespace pl::c2ast
