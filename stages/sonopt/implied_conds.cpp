// implied_conds.cpp - a branch whose condition a dominating branch already
// decides: `if (x == y) { if (x != y) A; }` never runs A, and
// `if (i < n) { ... if (n <= i) B; }` never runs B.
//
// Algorithm: every integer condition is a relation between two operands a
// and b: the set of outcomes of comparing them (less, equal, greater) that
// make it true, in an order (signed, unsigned, or any for == and !=, whose
// sets are the same in both). eq is {=}, ne {<, >}, slt/ult {<}, sle/ule
// {<, =}; an `if` on a value v that is no compare tests v != 0, the
// relation {<, >} between v and zero. For each reachable block B ending in
// an `if` on X, walk up B's dominators (at most kMaxDepth): at a dominator D
// ending in an `if` on Y whose proj 0 block (the true side) or proj 1 block
// (the false side) dominates B, Y's truth there is known (a proj block has
// that one edge in: reaching it means D took it). When X and Y relate the
// same two operands (in either orientation; a swap exchanges < and >; equal
// constants count as the same operand) in compatible orders, the outcomes
// Y leaves possible, K, decide X: K within X's set makes X true, K disjoint
// from it false. The first dominator that decides X wins (a nearer one is no
// less true). B's `if` then branches on the constant, and sccp and dce
// remove the dead side.
//
// Exact divisions, by the same walk: a signed division or remainder by 2^k
// (k >= 1) of x, in a block where a dominating branch has shown the low k
// bits of x zero (`if ((x & m) == 0)`, true side; `if (x & m)` or
// `if ((x & m) != 0)`, false side; m a constant holding those k bits), is
// exact: sdiv becomes `ashr x, k` (no rounding fix for a negative x: it
// has nothing to round), srem the constant 0. `if (n % 2 == 0) n = n / 2;`
// (idealize has made the test `(n & 1) == 0`) then halves n with one `sar`,
// as gcc's value ranges let it. Every use of the division is dominated by
// its block, so the shift, whatever it computes elsewhere, is read only
// where it equals the quotient.
// The walk is a part of what gcc's dominator optimizations (tree-ssa-dom)
// and LLVM's ConstraintElimination do, without value ranges: only the same
// two operands. Floating compares are left alone (NaN makes every outcome
// set a partial order's).
// Invariants needed: the son contract (an `if`'s projs are the blocks its
// edges enter). Kept: the son contract; no control edge changes (only the
// `if`'s condition input), so the blocks stay as they were.
#include <bit>
#include <optional>

#include "passes.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

constexpr int kMaxDepth = 64;

enum : uint8_t { kLess = 1, kEqual = 2, kGreater = 4, kAll = 7 };
enum class Order : uint8_t { Any, Signed, Unsigned };

struct Relation {
  NodeId a = kNone, b = kNone;  // b kNone: zero
  uint8_t outcomes = 0;         // when the condition is true
  Order order = Order::Any;
};

Relation relation_of(const Graph& g, NodeId cond) {
  const Node& n = g.node(cond);
  auto rel = [&](uint8_t outcomes, Order order) { return Relation{n.inputs[0], n.inputs[1], outcomes, order}; };
  switch (n.op) {
    case Op::Eq: return rel(kEqual, Order::Any);
    case Op::Ne: return rel(kLess | kGreater, Order::Any);
    case Op::SLt: return rel(kLess, Order::Signed);
    case Op::SLe: return rel(kLess | kEqual, Order::Signed);
    case Op::ULt: return rel(kLess, Order::Unsigned);
    case Op::ULe: return rel(kLess | kEqual, Order::Unsigned);
    default: return Relation{cond, kNone, kLess | kGreater, Order::Any};  // cond != 0
  }
}

bool is_float_compare(const Graph& g, NodeId cond) {
  return eval_class(g.op(cond)) == EvalClass::Compare && is_float_op(g.op(cond));
}

uint8_t swapped(uint8_t outcomes) {
  return static_cast<uint8_t>((outcomes & kEqual) | ((outcomes & kLess) ? kGreater : 0) |
                              ((outcomes & kGreater) ? kLess : 0));
}

class ImpliedConds {
 public:
  explicit ImpliedConds(Graph& g) : g_(g), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_) {}

  size_t run() {
    size_t changes = 0;
    for (uint32_t b = 0; b < cfg_.blocks.size(); ++b) {
      NodeId t = cfg_.terminator[b];
      if (t == kNone || !cfg_.reachable(b) || g_.op(t) != Op::If) continue;
      NodeId cond = g_.node(t).inputs[0];
      if (g_.is_const(cond) || is_float_compare(g_, cond)) continue;
      if (std::optional<bool> known = decided(b, relation_of(g_, cond))) {
        g_.set_input(t, 0, g_.add_constant(ValueType::I32, *known ? 1 : 0, g_.node(t).loc));
        if (g_.alive(cond)) g_.kill_if_unused(cond);
        ++changes;
      }
    }
    for (NodeId n = 0; n < g_.size(); ++n)
      if (g_.alive(n) && (g_.op(n) == Op::SDiv || g_.op(n) == Op::SRem) && make_exact(n)) ++changes;
    return changes;
  }

 private:
  bool same_operand(NodeId x, NodeId y) const {
    if (x == y) return true;
    auto zero_or_const = [&](NodeId n) -> std::optional<uint64_t> {
      if (n == kNone) return 0;
      if (g_.is_const(n)) return g_.const_value_of(n);
      return std::nullopt;
    };
    std::optional<uint64_t> cx = zero_or_const(x), cy = zero_or_const(y);
    return cx && cy && *cx == *cy;
  }

  // X's truth where Y is known to be `y_true`, if it follows.
  std::optional<bool> implied(const Relation& x, const Relation& y, bool y_true) const {
    if (x.order != Order::Any && y.order != Order::Any && x.order != y.order) return std::nullopt;
    uint8_t set;
    if (same_operand(x.a, y.a) && same_operand(x.b, y.b))
      set = x.outcomes;
    else if (same_operand(x.a, y.b) && same_operand(x.b, y.a))
      set = swapped(x.outcomes);
    else
      return std::nullopt;
    uint8_t known = y_true ? y.outcomes : static_cast<uint8_t>(~y.outcomes & kAll);
    if ((known & ~set & kAll) == 0) return true;
    if ((known & set) == 0) return false;
    return std::nullopt;
  }

  // The proj block of `if` node t for side `which` (0 true, 1 false).
  uint32_t side_block(NodeId t, int which) const {
    NodeId p = if_projs(g_, t)[which];
    return p == kNone ? DomTree::kNone : cfg_.block_of[p];
  }

  std::optional<bool> decided(uint32_t b, const Relation& x) const {
    uint32_t d = cfg_.dom.idom[b];
    for (int depth = 0; depth < kMaxDepth && d != DomTree::kNone; ++depth, d = cfg_.dom.idom[d]) {
      NodeId t = cfg_.terminator[d];
      if (t == kNone || g_.op(t) != Op::If) continue;
      NodeId cond = g_.node(t).inputs[0];
      if (is_float_compare(g_, cond)) continue;
      uint32_t on_true = side_block(t, 0), on_false = side_block(t, 1);
      std::optional<bool> y_true;
      auto dominates_b = [&](uint32_t side) {
        return side != DomTree::kNone && cfg_.reachable(side) && cfg_.dom.dominates(side, b);
      };
      if (dominates_b(on_true))
        y_true = true;
      else if (dominates_b(on_false))
        y_true = false;
      if (!y_true) continue;
      if (g_.is_const(cond)) continue;
      if (std::optional<bool> known = implied(x, relation_of(g_, cond), *y_true)) return known;
    }
    return std::nullopt;
  }

  // k when division (or remainder) n divides by 2^k, 1 <= k < its width.
  std::optional<unsigned> power_divisor(NodeId n) const {
    const Node& d = g_.node(n);
    std::optional<ValueType> t = literal_value_type(d.literals[0]);
    if (!t || d.inputs.size() != 2 || !g_.is_const(d.inputs[1])) return std::nullopt;
    unsigned bits = type_bits(*t);
    uint64_t c = truncate_to(g_.const_value_of(d.inputs[1]), bits);
    if (c < 2 || (c & (c - 1)) != 0 || c >> (bits - 1) != 0) return std::nullopt;
    return static_cast<unsigned>(std::countr_zero(c));
  }

  // Whether node v is `x & m` with constant m holding the low k bits.
  bool masks_low_bits(NodeId v, NodeId x, unsigned k) const {
    const Node& a = g_.node(v);
    if (a.op != Op::And) return false;
    uint64_t low = (uint64_t{1} << k) - 1;
    for (int i = 0; i < 2; ++i)
      if (a.inputs[i] == x && g_.is_const(a.inputs[1 - i]) && (g_.const_value_of(a.inputs[1 - i]) & low) == low)
        return true;
    return false;
  }

  // Whether a dominator of block b has shown x's low k bits zero there.
  bool low_bits_zero(uint32_t b, NodeId x, unsigned k) const {
    uint32_t d = cfg_.dom.idom[b];
    for (int depth = 0; depth < kMaxDepth && d != DomTree::kNone; ++depth, d = cfg_.dom.idom[d]) {
      NodeId t = cfg_.terminator[d];
      if (t == kNone || g_.op(t) != Op::If) continue;
      NodeId cond = g_.node(t).inputs[0];
      const Node& c = g_.node(cond);
      int zero_side;  // the side on which (x & m) == 0
      NodeId masked;
      if ((c.op == Op::Eq || c.op == Op::Ne) && g_.is_const(c.inputs[1]) && g_.const_value_of(c.inputs[1]) == 0) {
        zero_side = c.op == Op::Eq ? 0 : 1;
        masked = c.inputs[0];
      } else {
        zero_side = 1;  // `if (x & m)`: false when it is 0
        masked = cond;
      }
      if (!masks_low_bits(masked, x, k)) continue;
      uint32_t side = side_block(t, zero_side);
      if (side != DomTree::kNone && cfg_.reachable(side) && cfg_.dom.dominates(side, b)) return true;
    }
    return false;
  }

  // Rewrites sdiv/srem n if a dominating branch makes it exact.
  bool make_exact(NodeId n) {
    std::optional<unsigned> k = power_divisor(n);
    const Node& d = g_.node(n);
    if (!k || d.control.empty()) return false;
    uint32_t b = cfg_.block_of_node(g_, n);
    if (b == DomTree::kNone || !cfg_.reachable(b) || !low_bits_zero(b, d.inputs[0], *k)) return false;
    ValueType t = *literal_value_type(d.literals[0]);
    NodeId with = g_.op(n) == Op::SRem
                      ? g_.add_constant(t, 0, d.loc)
                      : g_.add_node(Op::AShr, {d.literals[0]}, {d.inputs[0], g_.add_constant(t, *k, d.loc)}, d.loc);
    g_.replace_uses(n, with);
    g_.kill(n);
    return true;
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
};

}  // namespace

size_t implied_conds(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  if (!has_op(fn, Op::If)) return 0;
  Graph g(fn, cache);
  size_t changes = ImpliedConds(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
