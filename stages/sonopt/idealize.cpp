// idealize.cpp - local rewrites of value nodes to a smaller, canonical form:
// constant folding, algebraic identities, canonical operand order,
// reassociation of constants, strength reduction.
//
// Algorithm: a worklist over nodes (Click's "iterative peephole", C. Click
// and K. Cooper, "Combining Analyses, Combining Optimizations", TOPLAS 1995;
// the `idealize` step of Click's sea of nodes and of Simple). Each step looks
// at one node and its inputs only and either leaves it, rewrites it in place,
// or replaces it by another node (every use moves there).
// Worklist invariant: a live node that is not on the worklist has no rule
// that applies to it given its current inputs. It holds at the start (every
// node is on it) and is kept because a node's rules read only the node and
// its inputs, so after a node changes (in place or by replacement) its users
// (and the node itself, or its replacement) go back on the list.
// Termination: every rule makes the graph smaller or moves it down a
// well-founded order (constants to the right, lower ids first, constants
// folded together).
//
// Rules (t the type literal, c a const, x y other values):
//  - fold: a pure or dividing node whose inputs are all `const` becomes the
//    `const` of common/ir/eval.h's result (eval_pure: folding is interpreting).
//    An evaluation error (division by zero, INT_MIN / -1, shift amount out
//    of range) folds nothing: the node stays and traps or is reported at
//    run time, as the interpreter does.
//  - constant_p of a const or fconst -> 1 (never 0: constant_p.cpp);
//  - order: add mul and or xor eq ne put a constant second, otherwise the
//    lower id first (so GVN sees x+y and y+x alike);
//  - identities: x+0, x-0, x*1, x&-1, x|0, x^0, x<<0, x>>0, x/1 -> x;
//    x*0, x&0, x%1 -> 0; x|-1 -> -1; 0<<y, 0>>y -> 0; -1 >>arith y -> -1;
//    0-x -> neg x; x-x, x^x -> 0; x&x, x|x
//    -> x; absorption: x | y -> y and x & y -> x when x's bits are within
//    y's (x = y, x = 0, x = a & b with a or b within y, y = a | b with x
//    within a or b, constants bit by bit; a bounded look); x==x, x<=x -> 1; x!=x, x<x -> 0; neg neg x, not not x -> x;
//    conversions between equal types -> x; trunc(sext/zext x) back to x's
//    type -> x;
//  - reassociation: (x op c1) op c2 -> x op (c1 op c2) for add mul and or
//    xor; x - c -> x + (-c);
//  - strength reduction: x * 2^k -> x << k, x * -1 -> neg x; (x srem
//    +-2^k) ==/!= 0 -> (x & (2^k - 1)) ==/!= 0; udiv by 2^k
//    -> lshr, urem by 2^k -> and (2^k - 1) (a non-zero constant divisor
//    cannot trap, so the pinned division becomes a floating pure node);
//    sdiv by 2^k -> ashr and srem by 2^k -> 0 when the low k bits of the
//    dividend are known zero (known_low_zeros: x * (x + 1) is even);
//  - (x + c1) ==/!= c2 -> x ==/!= (c2 - c1) for integer types; unsigned
//    compares of zext x with a constant at or beyond x's range: constants,
//    or x ==/!= the range's top (zext_against_constant);
//  - conditions: ne (cmp), 0 -> cmp and eq (cmp), 0 -> the inverse compare
//    (a floating compare's inverse swaps ordered and unordered: folt ->
//    fuge, exact for NaN)
//    (through a sext/zext of the compare too); an `if` on ne x, 0 branches
//    on x.
//  - select c a b: a or b for a constant c, a when a = b; a condition
//    (ne x, 0) becomes x, (eq x, 0) x with a and b swapped;
//  - floating point (step_float): constant folding by eval_float.h, which
//    is what the machine computes, and only the identities that keep every
//    bit (fneg fneg x, fabs fabs x, fabs fneg x, bitcast bitcast x; fabs x
//    < c for a constant c <= 0 is false, its inverse true; x * 2.0 is
//    x + x); never
//    x + 0.0, x * 1.0, x * 0.0, x - x, x == x, or any reassociation.
// Invariants needed: the son contract; operands have the type their user's
// type literal names (as c2ast writes them; the verifier does not check
// types yet), so x + 0 -> x keeps the type. Kept: the son contract; only
// pure nodes and non-trapping divisions are replaced; nothing pinned moves.
#include <algorithm>
#include <bit>
#include <map>

#include "passes.h"

namespace pl::sonopt {

namespace {

bool commutative(OpId op) {
  return op == Op::Add || op == Op::Mul || op == Op::And || op == Op::Or || op == Op::Xor || op == Op::Eq ||
         op == Op::Ne;
}

// How deep known_low_zeros looks through shifts, products, ands and adds.
constexpr int kLowZerosDepth = 4;

// How deep bits_within looks through and/or chains (each level tries two
// inputs on each side: at most 4^depth steps per node).
constexpr int kAbsorbDepth = 3;

bool associative(OpId op) {
  return op == Op::Add || op == Op::Mul || op == Op::And || op == Op::Or || op == Op::Xor;
}

bool is_compare(OpId op) { return eval_class(op) == EvalClass::Compare; }

bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

unsigned log2_of(uint64_t v) {
  unsigned k = 0;
  while (v > 1) {
    v >>= 1;
    ++k;
  }
  return k;
}

class Idealizer {
 public:
  explicit Idealizer(Graph& g) : g_(g) {
    for (NodeId n = 0; n < g_.size(); ++n)
      if (g_.alive(n) && g_.is_const(n)) consts_.emplace(std::pair{g_.const_type(n), g_.const_value_of(n)}, n);
  }

  size_t run() {
    NodeId first_new = g_.size();
    for (NodeId n = g_.size(); n-- > 0;) push(n);
    while (!work_.empty()) {
      NodeId n = work_.back();
      work_.pop_back();
      queued_[n] = false;
      if (g_.alive(n)) step(n);
    }
    // Constants made for a rewrite that a later rewrite no longer needs.
    for (NodeId n = first_new; n < g_.size(); ++n)
      if (g_.alive(n)) g_.kill_if_unused(n);
    return changes_;
  }

 private:
  void push(NodeId n) {
    if (n >= queued_.size()) queued_.resize(g_.size() + 1, false);
    if (queued_[n]) return;
    queued_[n] = true;
    work_.push_back(n);
  }
  void push_users(NodeId n) {
    for (NodeId u : g_.users(n)) push(u);
  }

  NodeId constant(ValueType t, uint64_t v, Loc loc) {
    auto key = std::pair{t, truncate_to(v, type_bits(t))};
    auto it = consts_.find(key);
    if (it != consts_.end() && g_.alive(it->second)) return it->second;
    NodeId c = g_.add_const(t, key.second, loc);
    consts_[key] = c;
    return c;
  }

  NodeId binary(OpId op, const Literal& type, NodeId a, NodeId b, Loc loc) {
    NodeId id = g_.add_node(op, {type}, {a, b}, loc);
    push(id);
    return id;
  }

  NodeId unary(OpId op, const Literal& type, NodeId a, Loc loc) {
    NodeId id = g_.add_node(op, {type}, {a}, loc);
    push(id);
    return id;
  }

  // n's uses go to `with`; n goes if nothing needs it any more.
  void replace(NodeId n, NodeId with) {
    ++changes_;
    g_.replace_uses(n, with);
    push(with);
    push_users(with);
    std::vector<NodeId> inputs(g_.node(n).inputs.begin(), g_.node(n).inputs.end());
    g_.kill(n);  // unused now (a pinned one is a division that cannot trap)
    for (NodeId i : inputs)
      if (g_.alive(i)) g_.kill_if_unused(i);
    for (NodeId i : inputs)
      if (g_.alive(i)) push(i);
  }

  void changed_in_place(NodeId n) {
    ++changes_;
    push(n);
    push_users(n);
  }

  void step(NodeId n) {
    OpId op = g_.op(n);
    if (op == Op::If) return branch(n);
    if (op == Op::ConstantP) return step_constant_p(n);
    if (is_float_op(op)) return step_float(n);
    EvalClass cls = eval_class(op);
    if (cls == EvalClass::None || cls == EvalClass::Const) return;
    if (cls == EvalClass::Select) return step_select(n);
    if (NodeId c = fold(n); c != kNone) return replace(n, c);
    std::optional<ValueType> t = literal_value_type(g_.node(n).literals[0]);
    if (!t) return;
    if (commutative(op) && reorder(n)) return changed_in_place(n);
    if (NodeId r = simplify(n, *t); r != kNone) {
      if (r == n) return changed_in_place(n);
      return replace(n, r);
    }
  }

  // constant_p x -> 1 when x is a const or fconst (__builtin_constant_p
  // after inlining); 0 is the constant-p pass's answer, once inlining is
  // done (constant_p.cpp), or the back end's.
  void step_constant_p(NodeId n) {
    const Node& nd = g_.node(n);
    OpId in = g_.op(nd.inputs[0]);
    if (in != Op::Const && in != Op::FConst) return;
    std::optional<ValueType> t = literal_value_type(nd.literals[0]);
    if (t) replace(n, constant(*t, 1, nd.loc));
  }

  // select c a b: a or b for a constant c; a when a = b; the condition of
  // (ne x, 0) is x, of (eq x, 0) x with the values swapped.
  void step_select(NodeId n) {
    const Node& nd = g_.node(n);
    NodeId c = nd.inputs[0], a = nd.inputs[1], b = nd.inputs[2];
    if (g_.is_const(c)) return replace(n, g_.const_value_of(c) != 0 ? a : b);
    if (a == b) return replace(n, a);
    const Node& cond = g_.node(c);
    if ((cond.op == Op::Ne || cond.op == Op::Eq) && const_is(cond.inputs[1], 0)) {
      bool swap = cond.op == Op::Eq;
      rewire(n, 0, cond.inputs[0]);
      if (swap) {
        g_.set_input(n, 1, b);
        g_.set_input(n, 2, a);
      }
      return changed_in_place(n);
    }
  }

  NodeId fold(NodeId n) {
    const Node& nd = g_.node(n);
    uint64_t args[2];
    if (nd.inputs.size() > 2) return kNone;
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      if (!g_.is_const(nd.inputs[i])) return kNone;
      args[i] = g_.const_value_of(nd.inputs[i]);
    }
    EvalError err = EvalError::None;
    std::optional<uint64_t> v =
        eval_pure(nd.op, {nd.literals.begin(), nd.literals.size()}, {args, nd.inputs.size()}, &err);
    if (!v) return kNone;
    std::optional<ValueType> t = result_type(g_, n);
    if (!t) return kNone;
    return constant(*t, *v, nd.loc);
  }

  // Floating point: only what keeps every bit (FORMAT.md 7, "Floating
  // point"). A node whose inputs are all constants folds to eval_float.h's
  // result (fptosi/fptoui out of range fold nothing); fneg fneg x -> x,
  // fabs (fneg x) -> fabs x, fabs (fabs x) -> fabs x, and a bitcast of a
  // bitcast back to the first type -> x. Nothing else: x + 0.0, x * 1.0,
  // x - x, x == x and reassociation all change some input's result (-0.0,
  // a signalling NaN, NaN itself).
  void step_float(NodeId n) {
    if (g_.op(n) == Op::FConst) return;
    if (NodeId c = fold_float(n); c != kNone) return replace(n, c);
    if (NodeId c = fabs_against_non_positive(n); c != kNone) return replace(n, c);
    if (NodeId c = double_as_sum(n); c != kNone) return replace(n, c);
    const Node& nd = g_.node(n);
    if (nd.inputs.size() != 1) return;
    NodeId x = nd.inputs[0];
    const Node& in = g_.node(x);
    switch (nd.op) {
      case Op::FNeg:
        if (in.op == Op::FNeg) return replace(n, in.inputs[0]);
        return;
      case Op::FAbs:
        if (in.op == Op::FAbs) return replace(n, x);
        if (in.op == Op::FNeg) {
          rewire(n, 0, in.inputs[0]);
          return changed_in_place(n);
        }
        return;
      case Op::Bitcast:
        if (in.op == Op::Bitcast && in.literals[0] == nd.literals[1]) return replace(n, in.inputs[0]);
        return;
      default: return;
    }
  }

  // x * 2.0 -> x + x (gcc's form): the same bits for every x (2x is exact
  // or overflows to the same infinity, -0.0 stays -0.0, a NaN x comes back
  // quieted either way), and the sum needs no constant: `addsd x, x`.
  NodeId double_as_sum(NodeId n) {
    const Node& nd = g_.node(n);
    if (nd.op != Op::FMul || nd.inputs.size() != 2) return kNone;
    std::optional<ValueType> ft = literal_value_type(nd.literals[0]);
    if (!ft) return kNone;
    const uint64_t two = *ft == ValueType::F32 ? 0x40000000u : 0x4000000000000000u;
    for (int k = 0; k < 2; ++k) {
      std::optional<uint64_t> bits = g_.constant_value(nd.inputs[k]);
      if (bits && *bits == two && !g_.is_const(nd.inputs[1 - k]))
        return binary(Op::FAdd, nd.literals[0], nd.inputs[1 - k], nd.inputs[1 - k], nd.loc);
    }
    return kNone;
  }

  // fabs x against a constant c <= 0 (not NaN): fabs x < c and c > fabs x
  // are false for every x (a NaN compares unordered, -0.0 < 0.0 is false),
  // their inverses fabs x >=unord c and c <=unord fabs x true.
  NodeId fabs_against_non_positive(NodeId n) {
    const Node& nd = g_.node(n);
    int abs_side;
    switch (nd.op) {
      case Op::FOLt: case Op::FUGe: abs_side = 0; break;
      case Op::FOGt: case Op::FULe: abs_side = 1; break;
      default: return kNone;
    }
    if (g_.op(nd.inputs[abs_side]) != Op::FAbs) return kNone;
    std::optional<uint64_t> bits = g_.constant_value(nd.inputs[1 - abs_side]);
    std::optional<ValueType> ft = literal_value_type(nd.literals[0]);
    if (!bits || !ft) return kNone;
    double c = *ft == ValueType::F32 ? static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(*bits)))
                                     : std::bit_cast<double>(*bits);
    if (!(c <= 0.0)) return kNone;  // (NaN: no)
    bool always = nd.op == Op::FUGe || nd.op == Op::FULe;
    return constant(ValueType::I32, always ? 1 : 0, nd.loc);
  }

  NodeId fold_float(NodeId n) {
    const Node& nd = g_.node(n);
    uint64_t args[2];
    if (nd.inputs.size() > 2) return kNone;
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      std::optional<uint64_t> v = g_.constant_value(nd.inputs[i]);
      if (!v) return kNone;
      args[i] = *v;
    }
    std::optional<uint64_t> v =
        eval_float_pure(nd.op, {nd.literals.begin(), nd.literals.size()}, {args, nd.inputs.size()}, nullptr);
    std::optional<ValueType> t = result_type(g_, n);
    if (!v || !t) return kNone;
    if (!is_float(*t)) return constant(*t, *v, nd.loc);
    NodeId c = g_.add_constant(*t, *v, nd.loc);  // GVN merges equal bits
    push(c);
    return c;
  }

  bool reorder(NodeId n) {
    NodeId a = g_.node(n).inputs[0], b = g_.node(n).inputs[1];
    bool swap = g_.is_const(a) ? !g_.is_const(b) : (!g_.is_const(b) && b < a);
    if (!swap) return false;
    g_.set_input(n, 0, b);
    g_.set_input(n, 1, a);
    return true;
  }

  // Sets input i of n and drops the old input if nothing reads it now.
  void rewire(NodeId n, size_t i, NodeId v) {
    NodeId old = g_.node(n).inputs[i];
    g_.set_input(n, i, v);
    if (g_.alive(old)) g_.kill_if_unused(old);
  }

  // For x = srem x' d with |d| = 2^k: and x' (2^k - 1), which is 0 exactly
  // when x is (the remainder is 0 exactly when the low k bits are, whatever
  // the signs); else kNone.
  NodeId low_bits_of_srem(NodeId x) {
    const Node& rem = g_.node(x);
    if (rem.op != Op::SRem || !g_.is_const(rem.inputs[1])) return kNone;
    std::optional<ValueType> t = literal_value_type(rem.literals[0]);
    if (!t) return kNone;
    unsigned bits = type_bits(*t);
    uint64_t d = truncate_to(g_.const_value_of(rem.inputs[1]), bits);
    uint64_t magnitude = ((d >> (bits - 1)) & 1) ? truncate_to(~d + 1, bits) : d;
    if (!power_of_two(magnitude)) return kNone;
    // Copies first: constant() adds a node, which may move `rem`.
    const Literal type = rem.literals[0];
    const NodeId dividend = rem.inputs[0];
    const Loc loc = rem.loc;
    return binary(Op::And, type, dividend, constant(*t, magnitude - 1, loc), loc);
  }

  bool const_is(NodeId c, uint64_t v) const { return g_.is_const(c) && g_.const_value_of(c) == v; }

  // How many low bits of the integer value x (of `bits` bits) are known to
  // be zero, by a bounded look (depth levels) through its definition: a
  // constant's trailing zeros; x << c adds c; a product adds its factors'
  // counts, and x * (x + d) for an odd constant d is even (one of the two
  // factors is: the low bit of a product is the and of the factors' low
  // bits, which wrapping keeps); and takes the larger count, add the
  // smaller. Only nodes of the same width are looked through.
  unsigned known_low_zeros(NodeId x, unsigned bits, int depth) const {
    if (g_.is_const(x)) {
      uint64_t v = truncate_to(g_.const_value_of(x), bits);
      return v == 0 ? bits : static_cast<unsigned>(std::countr_zero(v));
    }
    const Node& nd = g_.node(x);
    if (depth == 0 || nd.literals.empty() || nd.inputs.size() != 2) return 0;
    std::optional<ValueType> t = literal_value_type(nd.literals[0]);
    if (!t || is_float(*t) || type_bits(*t) != bits) return 0;
    NodeId a = nd.inputs[0], b = nd.inputs[1];
    switch (nd.op) {
      case Op::Shl: {
        if (!g_.is_const(b)) return 0;
        uint64_t k = g_.const_value_of(b);
        if (k >= bits) return 0;  // no meaning at run time (the interpreter reports it)
        return std::min<unsigned>(bits, static_cast<unsigned>(k) + known_low_zeros(a, bits, depth - 1));
      }
      case Op::Mul: {
        unsigned z = std::min(bits, known_low_zeros(a, bits, depth - 1) + known_low_zeros(b, bits, depth - 1));
        return z == 0 && (differ_by_odd(a, b) || differ_by_odd(b, a)) ? 1 : z;
      }
      case Op::And: return std::max(known_low_zeros(a, bits, depth - 1), known_low_zeros(b, bits, depth - 1));
      case Op::Add: return std::min(known_low_zeros(a, bits, depth - 1), known_low_zeros(b, bits, depth - 1));
      default: return 0;
    }
  }

  // Is b = a + d for an odd constant d?
  bool differ_by_odd(NodeId a, NodeId b) const {
    const Node& nd = g_.node(b);
    return nd.op == Op::Add && nd.inputs.size() == 2 && nd.inputs[0] == a && g_.is_const(nd.inputs[1]) &&
           (g_.const_value_of(nd.inputs[1]) & 1) != 0;
  }

  // x sdiv/srem 2^k (0 < k < bits - 1: a positive divisor) with the low k
  // bits of x known zero: the division is exact, so x >>arith k (no
  // rounding fix for a negative x: it has nothing to round), and the
  // remainder 0. (x * (x + 1) / 2, the triangular numbers: gcc reaches the
  // same code by knowing the product is not negative.)
  NodeId exact_division(NodeId n, ValueType t, uint64_t c) {
    const Node& nd = g_.node(n);
    unsigned bits = type_bits(t);
    c = truncate_to(c, bits);
    if (!power_of_two(c) || c == 1 || log2_of(c) >= bits - 1) return kNone;
    unsigned k = log2_of(c);
    if (known_low_zeros(nd.inputs[0], bits, kLowZerosDepth) < k) return kNone;
    if (nd.op == Op::SRem) return constant(t, 0, nd.loc);
    return binary(Op::AShr, nd.literals[0], nd.inputs[0], constant(t, k, nd.loc), nd.loc);
  }

  NodeId simplify(NodeId n, ValueType t) {
    const Node& nd = g_.node(n);
    OpId op = nd.op;
    unsigned bits = type_bits(t);
    uint64_t ones = width_mask(bits);
    if (nd.inputs.size() == 1) return simplify_unary(n);
    NodeId x = nd.inputs[0], y = nd.inputs[1];
    bool yc = g_.is_const(y);
    uint64_t c = yc ? g_.const_value_of(y) : 0;
    Loc loc = nd.loc;
    Literal type = nd.literals[0];
    if (op == Op::ULt || op == Op::ULe)
      if (NodeId r = zext_against_constant(n); r != kNone) return r;
    // Identities with a constant on the right.
    if (yc) {
      switch (op) {
        case Op::Add: case Op::Or: case Op::Xor: case Op::Shl: case Op::LShr: case Op::AShr:
          if (c == 0) return x;
          break;
        case Op::Sub:
          if (c == 0) return x;
          // x - c -> x + (-c): one form for reassociation and GVN.
          g_.set_op(n, Op::Add);
          rewire(n, 1, constant(t, eval_neg(c, bits), loc));
          return n;
        case Op::Mul:
          if (c == 0) return y;
          if (c == 1) return x;
          if (c == ones) return unary(Op::Neg, type, x, loc);
          if (power_of_two(c)) return binary(Op::Shl, type, x, constant(t, log2_of(c), loc), loc);
          break;
        case Op::And:
          if (c == 0) return y;
          if (c == ones) return x;
          break;
        case Op::UDiv:
          if (c == 1) return x;
          if (power_of_two(c)) return binary(Op::LShr, type, x, constant(t, log2_of(c), loc), loc);
          break;
        case Op::SDiv:
          if (c == 1) return x;
          if (NodeId r = exact_division(n, t, c); r != kNone) return r;
          break;
        case Op::URem:
          if (c == 1) return constant(t, 0, loc);
          if (power_of_two(c)) return binary(Op::And, type, x, constant(t, c - 1, loc), loc);
          break;
        case Op::SRem:
          if (c == 1) return constant(t, 0, loc);
          if (NodeId r = exact_division(n, t, c); r != kNone) return r;
          break;
        case Op::Eq:
        case Op::Ne:
          if (c == 0) {
            if (NodeId r = compare_of_compare(x, op == Op::Ne, loc); r != kNone) return r;
            if (NodeId low = low_bits_of_srem(x); low != kNone) {
              rewire(n, 0, low);
              return n;
            }
          }
          // (x' + c1) ==/!= c -> x' ==/!= c - c1: adding a constant is a
          // bijection of the type's values (integers only).
          if (const Node& inner = g_.node(x); t != ValueType::Ptr && inner.op == Op::Add &&
                                              inner.literals[0] == type && g_.is_const(inner.inputs[1])) {
            uint64_t c1 = g_.const_value_of(inner.inputs[1]);
            NodeId inner_x = inner.inputs[0];
            g_.set_input(n, 0, inner_x);
            if (g_.alive(x)) g_.kill_if_unused(x);
            rewire(n, 1, constant(t, (c - c1) & ones, loc));
            return n;
          }
          break;
        default: break;
      }
      if (op == Op::Or && c == ones) return y;
      if (associative(op)) {
        // (x' op c1) op c2 -> x' op (c1 op c2)
        const Node& inner = g_.node(x);
        if (inner.op == op && inner.literals[0] == nd.literals[0] && g_.is_const(inner.inputs[1])) {
          EvalError err;
          std::optional<uint64_t> folded =
              eval_binary(static_cast<Op>(op), bits, g_.const_value_of(inner.inputs[1]), c, err);
          if (folded) {
            NodeId inner_x = inner.inputs[0];
            g_.set_input(n, 0, inner_x);
            if (g_.alive(x)) g_.kill_if_unused(x);
            rewire(n, 1, constant(t, *folded, loc));
            return n;
          }
        }
      }
    }
    if (op == Op::Sub && g_.is_const(x) && g_.const_value_of(x) == 0) return unary(Op::Neg, type, y, loc);
    // A left operand every shift keeps: 0 << y, 0 >> y, -1 >>arith y.
    if ((op == Op::Shl || op == Op::LShr || op == Op::AShr) && g_.is_const(x)) {
      uint64_t v = g_.const_value_of(x);
      if (v == 0 || (op == Op::AShr && v == ones)) return x;
    }
    // Absorption: x | y is y when x's bits are within y's; x & y is x then.
    if (op == Op::Or || op == Op::And) {
      if (bits_within(x, y, nd.literals[0], kAbsorbDepth)) return op == Op::Or ? y : x;
      if (bits_within(y, x, nd.literals[0], kAbsorbDepth)) return op == Op::Or ? x : y;
    }
    if (x == y) {
      switch (op) {
        case Op::Sub: case Op::Xor: return constant(t, 0, loc);
        case Op::And: case Op::Or: return x;
        case Op::Eq: case Op::SLe: case Op::ULe: return constant(ValueType::I32, 1, loc);
        case Op::Ne: case Op::SLt: case Op::ULt: return constant(ValueType::I32, 0, loc);
        default: break;
      }
    }
    return kNone;
  }

  // An unsigned compare of a zero-extended value z = zext x (x of N bits)
  // with a constant c, against z's range [0, 2^N - 1] = [0, m]:
  // z < c and z <= c are true for c > m (c >= m for <=); z < m is x != m;
  // c < z and c <= z are false for c >= m (c > m for <=); m <= z is x == m.
  // (gcc folds these by value ranges; c-torture's 20041114-1.)
  NodeId zext_against_constant(NodeId n) {
    const Node nd = g_.node(n);
    NodeId a = nd.inputs[0], b = nd.inputs[1];
    bool zext_left = g_.op(a) == Op::ZExt && g_.is_const(b);
    bool zext_right = g_.op(b) == Op::ZExt && g_.is_const(a);
    if (!zext_left && !zext_right) return kNone;
    const Node& z = g_.node(zext_left ? a : b);
    std::optional<ValueType> from = literal_value_type(z.literals[0]);
    if (!from || is_float(*from) || *from == ValueType::Ptr || type_bits(*from) >= 64) return kNone;
    const uint64_t m = width_mask(type_bits(*from));
    const uint64_t c = g_.const_value_of(zext_left ? b : a);
    const bool le = nd.op == Op::ULe;
    if (zext_left) {
      if (c > m || (le && c == m)) return constant(ValueType::I32, 1, nd.loc);
      if (!le && c == m) return binary(Op::Ne, z.literals[0], z.inputs[0], constant(*from, m, nd.loc), nd.loc);
    } else {
      if (c > m || (!le && c == m)) return constant(ValueType::I32, 0, nd.loc);
      if (le && c == m) return binary(Op::Eq, z.literals[0], z.inputs[0], constant(*from, m, nd.loc), nd.loc);
    }
    return kNone;
  }

  // Whether every bit set in a is set in b, for values of type `type`,
  // shown by a bounded look through and/or nodes of that type: a & p is
  // within b when a or p is; a is within b | p when it is within b or p;
  // constants compare bit by bit. (a & m) | (a | k) -> a | k is
  // manyargs' `(i & 255) | (i | 9)`.
  bool bits_within(NodeId a, NodeId b, const Literal& type, int depth) const {
    if (a == b) return true;
    if (g_.is_const(a) && g_.const_value_of(a) == 0) return true;
    if (g_.is_const(a) && g_.is_const(b)) return (g_.const_value_of(a) & ~g_.const_value_of(b)) == 0;
    if (depth == 0) return false;
    const Node& an = g_.node(a);
    if (an.op == Op::And && an.literals[0] == type &&
        (bits_within(an.inputs[0], b, type, depth - 1) || bits_within(an.inputs[1], b, type, depth - 1)))
      return true;
    const Node& bn = g_.node(b);
    return bn.op == Op::Or && bn.literals[0] == type &&
           (bits_within(a, bn.inputs[0], type, depth - 1) || bits_within(a, bn.inputs[1], type, depth - 1));
  }

  NodeId simplify_unary(NodeId n) {
    const Node& nd = g_.node(n);
    NodeId x = nd.inputs[0];
    const Node& in = g_.node(x);
    switch (nd.op) {
      case Op::Neg:
      case Op::Not:
        if (in.op == nd.op && in.literals[0] == nd.literals[0]) return in.inputs[0];
        return kNone;
      case Op::SExt:
      case Op::ZExt:
      case Op::Trunc:
        if (nd.literals[0] == nd.literals[1]) return x;
        if (nd.op == Op::Trunc && (in.op == Op::SExt || in.op == Op::ZExt) && in.literals[0] == nd.literals[1] &&
            in.literals[1] == nd.literals[0])
          return in.inputs[0];
        return kNone;
      default: return kNone;
    }
  }

  // (cmp a b) != 0 -> cmp a b; (cmp a b) == 0 -> the inverse compare. A
  // widening of the compare's 0/1 is seen through.
  NodeId compare_of_compare(NodeId x, bool keep, Loc loc) {
    if (g_.op(x) == Op::SExt || g_.op(x) == Op::ZExt) x = g_.node(x).inputs[0];
    const Node& cmp = g_.node(x);
    if (float_pred(cmp.op)) return keep ? x : float_inverse(x, loc);
    if (!is_compare(cmp.op)) return kNone;
    if (keep) return x;
    NodeId a = cmp.inputs[0], b = cmp.inputs[1];
    switch (cmp.op) {
      case Op::Eq: return binary(Op::Ne, cmp.literals[0], a, b, loc);
      case Op::Ne: return binary(Op::Eq, cmp.literals[0], a, b, loc);
      case Op::SLt: return binary(Op::SLe, cmp.literals[0], b, a, loc);
      case Op::SLe: return binary(Op::SLt, cmp.literals[0], b, a, loc);
      case Op::ULt: return binary(Op::ULe, cmp.literals[0], b, a, loc);
      case Op::ULe: return binary(Op::ULt, cmp.literals[0], b, a, loc);
      default: return kNone;
    }
  }

  // The complement of a floating comparison, exact for NaN operands too:
  // ordered < becomes unordered >=, and so on (folt a b == 0 is fuge a b).
  NodeId float_inverse(NodeId x, Loc loc) {
    const Node& cmp = g_.node(x);
    OpId inverse;
    switch (cmp.op) {
      case Op::FOEq: inverse = Op::FUNe; break;
      case Op::FUNe: inverse = Op::FOEq; break;
      case Op::FONe: inverse = Op::FUEq; break;
      case Op::FUEq: inverse = Op::FONe; break;
      case Op::FOLt: inverse = Op::FUGe; break;
      case Op::FUGe: inverse = Op::FOLt; break;
      case Op::FOLe: inverse = Op::FUGt; break;
      case Op::FUGt: inverse = Op::FOLe; break;
      case Op::FOGt: inverse = Op::FULe; break;
      case Op::FULe: inverse = Op::FOGt; break;
      case Op::FOGe: inverse = Op::FULt; break;
      case Op::FULt: inverse = Op::FOGe; break;
      case Op::FOrd: inverse = Op::FUno; break;
      case Op::FUno: inverse = Op::FOrd; break;
      default: return kNone;
    }
    return binary(inverse, cmp.literals[0], cmp.inputs[0], cmp.inputs[1], loc);
  }

  // if (ne x, 0) -> if x: an if tests non-zero in any type.
  void branch(NodeId n) {
    NodeId cond = g_.node(n).inputs[0];
    const Node& c = g_.node(cond);
    if (c.op != Op::Ne || !const_is(c.inputs[1], 0)) return;
    g_.set_input(n, 0, c.inputs[0]);
    g_.kill_if_unused(cond);
    changed_in_place(n);
  }

  Graph& g_;
  std::map<std::pair<ValueType, uint64_t>, NodeId> consts_;
  std::vector<NodeId> work_;
  std::vector<bool> queued_;
  size_t changes_ = 0;
};

}  // namespace

size_t idealize(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  size_t changes = Idealizer(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
