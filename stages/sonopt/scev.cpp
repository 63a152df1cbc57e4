// scev.cpp - scalar evolution (see scev.h for the algorithm and its paper).
#include "scev.h"

#include <algorithm>

namespace pl::sonopt {

namespace {

bool is_integer_like(ValueType t) { return !is_float(t) && t != ValueType::I1; }

// result_type (graph.h), and a select's type (its literal), which that
// leaves out.
std::optional<ValueType> value_type(const Graph& g, NodeId n) {
  if (g.op(n) == Op::Select) return literal_value_type(g.node(n).literals[0]);
  return result_type(g, n);
}

// The inverse of an odd x modulo 2^64 (Newton's iteration: each step
// doubles the correct low bits).
uint64_t odd_inverse(uint64_t x) {
  uint64_t y = x;  // correct to 3 bits
  for (int i = 0; i < 6; ++i) y *= 2 - x * y;
  return y;
}

}  // namespace

Scev::Scev(const Graph& g, const SonCfg& cfg, const Loop& loop, InvariantMemo& memo)
    : g_(g), cfg_(cfg), loop_(loop), region_(cfg.blocks[loop.header]), memo_(memo) {
  memo_.clear();
}

// ---- the expression pool -----------------------------------------------------

ExprId Scev::push(ScevExpr e) {
  pool_.push_back(e);
  return static_cast<ExprId>(pool_.size() - 1);
}

ExprId Scev::konst(ValueType t, uint64_t v) {
  ScevExpr e;
  e.kind = ScevExpr::Kind::Const;
  e.type = t;
  e.value = truncate_to(v, type_bits(t));
  return push(e);
}

ExprId Scev::leaf(NodeId n, ValueType t) {
  if (g_.is_const(n)) return konst(t, g_.const_value_of(n));
  auto it = leaves_.find(n);
  if (it != leaves_.end()) return it->second;
  ScevExpr e;
  e.kind = ScevExpr::Kind::Leaf;
  e.type = t;
  e.node = n;
  return leaves_[n] = push(e);
}

std::optional<uint64_t> Scev::constant(ExprId e) const {
  if (e == kNoExpr || expr(e).kind != ScevExpr::Kind::Const) return std::nullopt;
  return expr(e).value;
}

ValueType Scev::result_of(ExprId id) const {
  const ScevExpr& e = expr(id);
  if (e.kind != ScevExpr::Kind::Op) return e.type;
  switch (e.op) {
    case Op::SLt: case Op::ULt: case Op::SLe: case Op::ULe: case Op::Eq: case Op::Ne: return ValueType::I32;
    case Op::ZExt: case Op::Trunc: case Op::SExt: return e.to;
    default: return e.type;
  }
}

ExprId Scev::binary(OpId op, ValueType t, ExprId a, ExprId b) {
  std::optional<uint64_t> ca = constant(a), cb = constant(b);
  if (ca && cb && t != ValueType::Ptr) {
    EvalError err = EvalError::None;
    if (std::optional<uint64_t> v = eval_binary(static_cast<Op>(op), type_bits(t), *ca, *cb, err)) {
      bool compare = op == Op::SLt || op == Op::ULt || op == Op::SLe || op == Op::ULe || op == Op::Eq || op == Op::Ne;
      return konst(compare ? ValueType::I32 : t, *v);
    }
  }
  ScevExpr e;
  e.kind = ScevExpr::Kind::Op;
  e.op = op;
  e.type = t;
  e.in = {a, b, kNoExpr};
  return push(e);
}

ExprId Scev::add(ValueType t, ExprId a, ExprId b) {
  if (constant(b) == 0u) return a;
  if (t != ValueType::Ptr && constant(a) == 0u) return b;
  if (t != ValueType::Ptr && constant(a) && !constant(b)) std::swap(a, b);  // constants on the right
  // (x + c1) + c2 = x + (c1 + c2)
  const ScevExpr& ea = expr(a);
  if (t != ValueType::Ptr && constant(b) && ea.kind == ScevExpr::Kind::Op && ea.op == Op::Add && constant(ea.in[1]))
    return add(t, ea.in[0], konst(t, *constant(ea.in[1]) + *constant(b)));
  return binary(Op::Add, t, a, b);
}

// e as x + y: an add expression, or a leaf standing for an add node.
std::optional<std::pair<ExprId, ExprId>> Scev::as_add(ExprId e) {
  const ScevExpr& x = expr(e);
  if (x.kind == ScevExpr::Kind::Op && x.op == Op::Add) return std::pair{x.in[0], x.in[1]};
  if (x.kind != ScevExpr::Kind::Leaf || g_.op(x.node) != Op::Add) return std::nullopt;
  const Node& nd = g_.node(x.node);
  std::optional<ValueType> t = literal_value_type(nd.literals[0]);
  std::optional<ValueType> rhs = value_type(g_, nd.inputs[1]);
  if (!t || !rhs) return std::nullopt;
  ValueType left = x.type == ValueType::Ptr ? ValueType::Ptr : *t;
  if (x.type == ValueType::Ptr && *rhs != ValueType::I64) return std::nullopt;
  return std::pair{leaf(nd.inputs[0], left), leaf(nd.inputs[1], *rhs)};
}

ExprId Scev::sub(ValueType t, ExprId a, ExprId b) {
  ValueType diff_type = t == ValueType::Ptr ? ValueType::I64 : t;
  if (a == b) return konst(diff_type, 0);
  std::optional<std::pair<ExprId, ExprId>> aa = as_add(a), bb = as_add(b);
  if (aa && aa->first == b) return aa->second;                                     // (x + y) - x
  if (bb && bb->first == a) return sub(diff_type, konst(diff_type, 0), bb->second);  // x - (x + y)
  if (aa && bb && aa->first == bb->first) return sub(diff_type, aa->second, bb->second);
  if (t == ValueType::Ptr) return binary(Op::Sub, ValueType::I64, a, b);  // `sub "i64" p, q`, as C's p - q
  if (constant(b) == 0u) return a;
  if (constant(b)) return add(t, a, konst(t, 0 - *constant(b)));
  return binary(Op::Sub, t, a, b);
}

ExprId Scev::mul(ValueType t, ExprId a, ExprId b) {
  if (constant(a) && !constant(b)) std::swap(a, b);
  if (constant(b) == 0u) return b;
  if (constant(b) == 1u) return a;
  return binary(Op::Mul, t, a, b);
}

ExprId Scev::convert(OpId op, ValueType from, ValueType to, ExprId a) {
  if (from == to) return a;
  if (std::optional<uint64_t> c = constant(a)) {
    if (op == Op::SExt) return konst(to, static_cast<uint64_t>(sign_extend(*c, type_bits(from))));
    return konst(to, *c);  // zext keeps the value, trunc keeps the low bits
  }
  ScevExpr e;
  e.kind = ScevExpr::Kind::Op;
  e.op = op;
  e.type = from;
  e.to = to;
  e.in = {a, kNoExpr, kNoExpr};
  return push(e);
}

ExprId Scev::select(ValueType t, ExprId c, ExprId a, ExprId b) {
  if (std::optional<uint64_t> v = constant(c)) return *v ? a : b;
  if (a == b) return a;
  ScevExpr e;
  e.kind = ScevExpr::Kind::Op;
  e.op = Op::Select;
  e.type = t;
  e.in = {c, a, b};
  return push(e);
}

NodeId Scev::materialize(Graph& g, ExprId id, Loc loc) {
  auto it = built_.find(id);
  if (it != built_.end()) return it->second;
  const ScevExpr e = expr(id);
  NodeId n = kNone;
  switch (e.kind) {
    case ScevExpr::Kind::Const: n = g.add_const(e.type, e.value, loc); break;
    case ScevExpr::Kind::Leaf: n = e.node; break;
    case ScevExpr::Kind::Op: {
      InputList inputs;
      for (ExprId i : e.in)
        if (i != kNoExpr) inputs.push_back(materialize(g, i, loc));
      LiteralList lits = {Literal::string(value_type_name(e.type))};
      if (e.op == Op::ZExt || e.op == Op::Trunc || e.op == Op::SExt) lits.push_back(Literal::string(value_type_name(e.to)));
      // A division (by a constant >= 2 here: it cannot trap) is pinned, as
      // the contract wants: at the end of the preheader, where the
      // recurrences' starts and the bound are available.
      ControlList control;
      if (e.op == Op::UDiv) control.push_back(loop_.preheader_node);
      n = g.add_node(e.op, std::move(lits), std::move(inputs), loc, std::move(control));
      break;
    }
  }
  built_[id] = n;
  return n;
}

// ---- evolutions -------------------------------------------------------------

ValueType Scev::coeff_type(const Chrec& ch, int i) const {
  if (ch.type != ValueType::Ptr) return ch.type;
  return i == 0 && !ch.self ? ValueType::Ptr : ValueType::I64;
}

std::optional<Chrec> Scev::evolution(NodeId n) {
  auto it = evolutions_.find(n);
  if (it != evolutions_.end()) return it->second;
  if (--budget_ < 0) return std::nullopt;
  std::optional<Chrec> r = compute(n);
  // A value relative to the phi being analysed holds only while it is; a
  // failure caused by it is final (it is a cycle through two phis).
  if (!r || !r->self) evolutions_[n] = r;
  return r;
}

std::optional<Chrec> Scev::compute(NodeId n) {
  const Node& nd = g_.node(n);
  if (nd.op == Op::Phi && nd.control[0] == region_) {
    if (!in_progress_.empty() && in_progress_.back() == n) {
      std::optional<ValueType> t = value_type(g_, n);
      if (!t) return std::nullopt;
      Chrec self;
      self.type = *t;
      self.self = true;
      self.c[0] = konst(*t == ValueType::Ptr ? ValueType::I64 : *t, 0);
      return self;
    }
    if (std::find(in_progress_.begin(), in_progress_.end(), n) != in_progress_.end()) return std::nullopt;
    return phi_evolution(n);
  }
  std::optional<ValueType> t = value_type(g_, n);
  if (!t || !is_integer_like(*t)) return std::nullopt;
  if (nd.op == Op::Const) return Chrec{*t, 0, {konst(*t, g_.const_value_of(n)), kNoExpr, kNoExpr}, false};
  if (loop_invariant(g_, cfg_, loop_, n, memo_)) return Chrec{*t, 0, {leaf(n, *t), kNoExpr, kNoExpr}, false};
  if (!nd.control.empty()) return std::nullopt;  // pinned in the loop
  auto operand = [&](size_t i) { return evolution(nd.inputs[i]); };
  switch (nd.op) {
    case Op::Add: {
      std::optional<Chrec> a = operand(0), b = operand(1);
      if (!a || !b) return std::nullopt;
      if (b->type == ValueType::Ptr && a->type != ValueType::Ptr) std::swap(a, b);
      // A pointer step may be a `const "ptr"` (`--p`): an i64 offset here.
      if (a->type == ValueType::Ptr && b->type == ValueType::Ptr && b->order == 0 && !b->self && constant(a->c[0]) &&
          !a->self)
        std::swap(a, b);
      if (a->type == ValueType::Ptr && b->type == ValueType::Ptr && b->order == 0 && !b->self && constant(b->c[0]))
        b = Chrec{ValueType::I64, 0, {konst(ValueType::I64, *constant(b->c[0])), kNoExpr, kNoExpr}, false};
      return combine_add(*a, *b, false);
    }
    case Op::Sub: {
      std::optional<Chrec> a = operand(0), b = operand(1);
      if (!a || !b || *t == ValueType::Ptr || a->type != b->type) return std::nullopt;
      if (a->type == ValueType::Ptr) return pointer_difference(*a, *b);
      return combine_add(*a, *b, true);
    }
    case Op::Neg: {
      std::optional<Chrec> a = operand(0);
      if (!a || a->type == ValueType::Ptr) return std::nullopt;
      Chrec zero{*t, 0, {konst(*t, 0), kNoExpr, kNoExpr}, false};
      return combine_add(zero, *a, true);
    }
    case Op::Mul: {
      std::optional<Chrec> a = operand(0), b = operand(1);
      if (!a || !b || *t == ValueType::Ptr) return std::nullopt;
      return combine_mul(*a, *b);
    }
    case Op::Shl: {
      std::optional<Chrec> a = operand(0);
      if (!a || !g_.is_const(nd.inputs[1]) || *t == ValueType::Ptr) return std::nullopt;
      uint64_t amount = g_.const_value_of(nd.inputs[1]);
      if (amount >= type_bits(*t)) return std::nullopt;
      return scale(*a, konst(*t, uint64_t{1} << amount));
    }
    case Op::SExt:
    case Op::ZExt: {
      std::optional<Chrec> a = operand(0);
      if (!a || a->self || a->order != 1 || !nowrap_ || nowrap_->start != a->c[0] || nowrap_->step != a->c[1] ||
          nowrap_->type != a->type || nowrap_->is_signed != (nd.op == Op::SExt) || *t == ValueType::Ptr)
        return std::nullopt;
      uint64_t step = *constant(a->c[1]);
      if (nd.op == Op::SExt) step = static_cast<uint64_t>(sign_extend(step, type_bits(a->type)));
      return Chrec{*t, 1, {convert(nd.op, a->type, *t, a->c[0]), konst(*t, step), kNoExpr}, false};
    }
    case Op::Trunc: {
      std::optional<Chrec> a = operand(0);
      if (!a || a->self || a->type == ValueType::Ptr) return std::nullopt;
      Chrec r{*t, a->order, {kNoExpr, kNoExpr, kNoExpr}, false};
      for (int i = 0; i <= a->order; ++i) r.c[i] = convert(Op::Trunc, a->type, *t, a->c[i]);
      return r;
    }
    default: return std::nullopt;
  }
}

std::optional<Chrec> Scev::phi_evolution(NodeId phi) {
  const Node& nd = g_.node(phi);
  if (nd.inputs.size() != 2 || !loop_.simple()) return std::nullopt;
  std::optional<ValueType> t = value_type(g_, phi);
  if (!t || !is_integer_like(*t)) return std::nullopt;
  std::optional<Chrec> entry = evolution(nd.inputs[loop_.entry_index]);
  if (!entry || entry->order != 0 || entry->self || entry->type != *t) return std::nullopt;
  in_progress_.push_back(phi);
  std::optional<Chrec> back = evolution(nd.inputs[1 - loop_.entry_index]);
  in_progress_.pop_back();
  // phi(k+1) = phi(k) + R(k): {entry, +, R}.
  if (!back || !back->self || back->order >= 2) return std::nullopt;
  Chrec r{*t, back->order + 1, {entry->c[0], back->c[0], back->c[1]}, false};
  return r;
}

std::optional<Chrec> Scev::combine_add(const Chrec& a, const Chrec& b, bool subtract) {
  if (b.self && (subtract || a.self)) return std::nullopt;
  if (b.self) return combine_add(b, a, false);
  bool ptr = a.type == ValueType::Ptr;
  if (ptr ? (b.type != ValueType::I64 || subtract) : a.type != b.type) return std::nullopt;
  Chrec r;
  r.type = a.type;
  r.self = a.self;
  r.order = std::max(a.order, b.order);
  for (int i = 0; i <= r.order; ++i) {
    ValueType ct = coeff_type(r, i);
    ExprId x = i <= a.order ? a.c[i] : konst(coeff_type(a, i), 0);
    ExprId y = i <= b.order ? b.c[i] : konst(b.type, 0);
    r.c[i] = subtract ? sub(ct, x, y) : add(ct, x, y);
    if (r.c[i] == kNoExpr) return std::nullopt;
  }
  return r;
}

// p - q of two pointer recurrences, an i64 one (`sub "i64" p, q`).
std::optional<Chrec> Scev::pointer_difference(const Chrec& a, const Chrec& b) {
  if (a.self || b.self) return std::nullopt;
  Chrec r{ValueType::I64, std::max(a.order, b.order), {}, false};
  for (int i = 0; i <= r.order; ++i) {
    ValueType ct = i == 0 ? ValueType::Ptr : ValueType::I64;
    ExprId x = i <= a.order ? a.c[i] : konst(ValueType::I64, 0);
    ExprId y = i <= b.order ? b.c[i] : konst(ValueType::I64, 0);
    r.c[i] = sub(ct, x, y);
  }
  return r;
}

std::optional<Chrec> Scev::scale(const Chrec& a, ExprId k) {
  if (a.self) return std::nullopt;
  Chrec r = a;
  for (int i = 0; i <= a.order; ++i) r.c[i] = mul(a.type, a.c[i], k);
  return r;
}

std::optional<Chrec> Scev::combine_mul(const Chrec& a, const Chrec& b) {
  if (a.self || b.self || a.type != b.type || a.order + b.order > 2) return std::nullopt;
  if (b.order == 0) return scale(a, b.c[0]);
  if (a.order == 0) return scale(b, a.c[0]);
  // (a0 + a1 k)(b0 + b1 k) = a0 b0 + (a0 b1 + a1 b0) k + a1 b1 k^2, and
  // k^2 = k + 2 C(k, 2).
  ValueType t = a.type;
  ExprId a1b1 = mul(t, a.c[1], b.c[1]);
  Chrec r{t, 2, {}, false};
  r.c[0] = mul(t, a.c[0], b.c[0]);
  r.c[1] = add(t, add(t, mul(t, a.c[0], b.c[1]), mul(t, a.c[1], b.c[0])), a1b1);
  r.c[2] = mul(t, a1b1, konst(t, 2));
  return r;
}

// ---- trip counts ------------------------------------------------------------

// Stay while x < bound (increasing) or bound < x (decreasing), x = {a, +, s}.
std::optional<ExprId> Scev::count_less(bool is_signed, unsigned bits, ValueType t, const Chrec& x, ExprId bound,
                                       bool increasing) {
  int64_t s = sign_extend(*constant(x.c[1]), bits);
  if (s == 0 || (s > 0) != increasing) return std::nullopt;
  uint64_t d = s > 0 ? static_cast<uint64_t>(s) : uint64_t{0} - static_cast<uint64_t>(s);
  if (d != 1) {
    // After its last value on the stay side, x must not step past the
    // type's limit (it would wrap and maybe stay).
    std::optional<uint64_t> b = constant(bound);
    if (!b) return std::nullopt;
    // (d >= 2 here and d <= 2^(bits-1), so every limit below fits.)
    if (is_signed) {
      int64_t sb = sign_extend(*b, bits);
      if (increasing ? sb > static_cast<int64_t>(width_mask(bits - 1) - d + 1)
                     : sb < -static_cast<int64_t>(width_mask(bits - 1) + 2 - d))
        return std::nullopt;
    } else if (increasing ? *b > width_mask(bits) - d + 1 : *b < d - 1) {
      return std::nullopt;
    }
  }
  ValueType ct = t == ValueType::Ptr ? ValueType::I64 : t;
  OpId lt = is_signed ? Op::SLt : Op::ULt;
  ExprId a = x.c[0];
  ExprId enters = increasing ? binary(lt, t, a, bound) : binary(lt, t, bound, a);
  ExprId gap = increasing ? sub(t, bound, a) : sub(t, a, bound);  // >= 1 when entered
  if (gap == kNoExpr) return std::nullopt;
  ExprId trips = gap;
  if (d != 1) {
    ExprId less = sub(ct, gap, konst(ct, 1));
    ExprId q = (d & (d - 1)) == 0 ? binary(Op::LShr, ct, less, konst(ct, static_cast<uint64_t>(__builtin_ctzll(d))))
                                  : binary(Op::UDiv, ct, less, konst(ct, d));
    trips = add(ct, q, konst(ct, 1));
  }
  return select(ct, enters, trips, konst(ct, 0));
}

// diff / 2^z, exactly, when diff is visibly a multiple of 2^z: a constant,
// a product by a multiple of 2^z or a shift left by z or more, their
// negations and sums, looking through leaves into the nodes they stand for.
ExprId Scev::halve(ValueType t, ExprId diff, unsigned z, int depth) {
  if (z == 0) return diff;
  if (depth > 8) return kNoExpr;
  if (std::optional<uint64_t> c = constant(diff)) return *c & width_mask(z) ? kNoExpr : konst(t, *c >> z);
  const ScevExpr& e = expr(diff);
  OpId op = e.op;
  ExprId lhs = e.in[0], rhs = e.in[1];
  if (e.kind == ScevExpr::Kind::Leaf) {
    const Node& nd = g_.node(e.node);
    if ((nd.op != Op::Mul && nd.op != Op::Shl) || nd.inputs.size() != 2) return kNoExpr;
    if (literal_value_type(nd.literals[0]) != t) return kNoExpr;
    op = nd.op;
    lhs = leaf(nd.inputs[0], t);
    rhs = g_.is_const(nd.inputs[1]) ? konst(t, g_.const_value_of(nd.inputs[1])) : kNoExpr;
  } else if (e.kind != ScevExpr::Kind::Op || e.type != t) {
    return kNoExpr;
  }
  std::optional<uint64_t> k = rhs == kNoExpr ? std::nullopt : constant(rhs);
  switch (op) {
    case Op::Mul:
      if (k && (*k & width_mask(z)) == 0) return mul(t, lhs, konst(t, *k >> z));
      return kNoExpr;
    case Op::Shl:
      if (k && *k >= z && *k < type_bits(t)) return mul(t, lhs, konst(t, uint64_t{1} << (*k - z)));
      return kNoExpr;
    case Op::Add:
    case Op::Sub: {
      ExprId a = halve(t, lhs, z, depth + 1);
      ExprId b = a == kNoExpr ? kNoExpr : halve(t, rhs, z, depth + 1);
      if (b == kNoExpr) return kNoExpr;
      return op == Op::Add ? add(t, a, b) : sub(t, a, b);
    }
    default: return kNoExpr;
  }
}

// q with q * step = diff modulo 2^w, the least such (see scev.h).
ExprId Scev::exact_quotient(ValueType t, ExprId diff, uint64_t step) {
  unsigned bits = type_bits(t);
  unsigned z = static_cast<unsigned>(__builtin_ctzll(step));
  uint64_t inverse = truncate_to(odd_inverse(step >> z), bits);
  ExprId halved = halve(t, diff, z, 0);
  if (halved == kNoExpr) return kNoExpr;
  ExprId q = mul(t, halved, konst(t, inverse));
  if (z == 0) return q;
  return binary(Op::And, t, q, konst(t, width_mask(bits - z)));
}

std::optional<ExprId> Scev::trip_count(const HeaderTest& test) {
  if (!loop_.simple() || g_.node(region_).control.size() != 2) return std::nullopt;
  const Node& c = g_.node(test.cond);
  OpId op = c.op;
  if (op != Op::SLt && op != Op::SLe && op != Op::ULt && op != Op::ULe && op != Op::Eq && op != Op::Ne)
    return std::nullopt;
  std::optional<ValueType> t = literal_value_type(c.literals[0]);
  if (!t || !is_integer_like(*t)) return std::nullopt;
  unsigned bits = type_bits(*t);
  NodeId lhs = c.inputs[0], rhs = c.inputs[1];
  // Stay while `lhs op rhs`: a test staying on false is negated.
  if (!test.stays_on_true) {
    switch (op) {
      case Op::SLt: op = Op::SLe; std::swap(lhs, rhs); break;
      case Op::SLe: op = Op::SLt; std::swap(lhs, rhs); break;
      case Op::ULt: op = Op::ULe; std::swap(lhs, rhs); break;
      case Op::ULe: op = Op::ULt; std::swap(lhs, rhs); break;
      case Op::Eq: op = Op::Ne; break;
      default: return std::nullopt;  // stay while equal: not a count kept here
    }
  }
  std::optional<Chrec> l = evolution(lhs), r = evolution(rhs);
  if (!l || !r || l->self || r->self) return std::nullopt;
  bool x_left = l->order == 1 && r->order == 0;
  if (!x_left && !(r->order == 1 && l->order == 0)) return std::nullopt;
  const Chrec& x = x_left ? *l : *r;
  ExprId bound = x_left ? r->c[0] : l->c[0];
  if (x.type != *t || !constant(x.c[1])) return std::nullopt;
  ValueType ct = *t == ValueType::Ptr ? ValueType::I64 : *t;
  if (op == Op::Ne) {
    ExprId diff = sub(*t, bound, x.c[0]);
    if (diff == kNoExpr || *constant(x.c[1]) == 0) return std::nullopt;
    ExprId q = exact_quotient(ct, diff, *constant(x.c[1]));
    if (q == kNoExpr) return std::nullopt;
    return q;
  }
  bool is_signed = op == Op::SLt || op == Op::SLe;
  if (op == Op::SLe || op == Op::ULe) {
    // x <= B is x < B + 1, B <= x is B - 1 < x: B a constant off the limit.
    std::optional<uint64_t> b = constant(bound);
    if (!b || *t == ValueType::Ptr) return std::nullopt;
    uint64_t max = is_signed ? width_mask(bits - 1) : width_mask(bits);
    uint64_t min = is_signed ? signed_min(bits) : 0;
    if (x_left ? *b == max : *b == min) return std::nullopt;
    bound = konst(*t, x_left ? *b + 1 : *b - 1);
  }
  std::optional<ExprId> trips = count_less(is_signed, bits, *t, x, bound, x_left);
  if (trips && *t != ValueType::Ptr && constant(x.c[1])) {
    // x's values on the arrivals at the header stay between its start and
    // the type's limit: no wrap in the compare's signedness (scev.h).
    nowrap_ = NoWrap{x.c[0], x.c[1], x.type, is_signed};
    for (auto it = evolutions_.begin(); it != evolutions_.end();)  // failures may now succeed
      it = it->second ? std::next(it) : evolutions_.erase(it);
  }
  return trips;
}

// ---- closed forms -----------------------------------------------------------

// T(T-1)/2 in type t (T exact in its own width, widened or truncated here).
ExprId Scev::binomial2(ExprId trips, ValueType t) {
  ValueType tt = result_of(trips);
  ValueType w = type_bits(tt) >= type_bits(t) ? tt : t;
  ExprId n = convert(Op::ZExt, tt, w, trips);
  ExprId one = konst(w, 1);
  ExprId less = sub(w, n, one);
  ExprId value;
  if (std::optional<uint64_t> c = constant(n)) {
    value = konst(w, (*c & 1) ? *c * ((*c - 1) >> 1) : (*c >> 1) * (*c - 1));
  } else {
    ExprId odd = binary(Op::And, w, n, one);
    ExprId if_odd = mul(w, n, binary(Op::LShr, w, less, one));
    ExprId if_even = mul(w, binary(Op::LShr, w, n, one), less);
    value = select(w, odd, if_odd, if_even);
  }
  return convert(Op::Trunc, w, t, value);
}

std::optional<ExprId> Scev::at(const Chrec& ch, ExprId trips) {
  if (ch.self) return std::nullopt;
  if (ch.order == 0) return ch.c[0];
  ValueType st = coeff_type(ch, 1);  // the steps' type
  ValueType tt = result_of(trips);
  ExprId n = type_bits(tt) <= type_bits(st) ? convert(Op::ZExt, tt, st, trips) : convert(Op::Trunc, tt, st, trips);
  ExprId steps = mul(st, ch.c[1], n);
  if (ch.order == 2) steps = add(st, steps, mul(st, ch.c[2], binomial2(trips, st)));
  return add(coeff_type(ch, 0), ch.c[0], steps);
}

std::optional<int> constant_trip_count(const Graph& g, const SonCfg& cfg, const Loop& loop, const HeaderTest& test,
                                       InvariantMemo& memo, int max_trips) {
  Scev scev(g, cfg, loop, memo);
  if (std::optional<ExprId> trips = scev.trip_count(test))
    if (std::optional<uint64_t> t = scev.constant(*trips)) {
      if (*t > static_cast<uint64_t>(max_trips)) return std::nullopt;
      return static_cast<int>(*t);
    }
  return trip_count(g, cfg, loop, test, max_trips);
}

}  // namespace pl::sonopt
