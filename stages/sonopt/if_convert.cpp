// if_convert.cpp - if-conversion: a branch whose two sides do nothing but
// pick the values a merge receives becomes `select`s (son-lower-x64 makes
// each a cmov), so a condition the machine cannot predict (a CRC's low bit,
// a comparison of data) costs no mispredicted jump.
//
// The shape, a diamond or a triangle: an `if` on an integer condition c
// whose two sides are empty (simplify_cfg.cpp's empty_side: nothing hangs
// off its proj but the edge, so neither side loads, stores, calls or
// divides) and lead to the same region R, with at least one value phi on R.
// Each value phi becomes `select t c v0 v1` (v0 its input on the true
// side's edge, v1 on the false side's); its users read the select. R's
// phis then read the same value on both edges, and simplify-cfg removes the
// empty diamond.
//
// What it costs: a value that only one side needed (GCM would have placed
// it on that side) now runs on both paths. The pass converts only when, on
// each side, the nodes computed for it alone (the phi inputs and the pure
// nodes only they use, walked up to kCone nodes) number at most
// kMaxSpeculated, and when at most kMaxPhis phis merge: a few cheap
// instructions and one cmov each against a jump that may mispredict (15 to
// 20 cycles). A predictable branch would cost nothing: one whose
// probability (FORMAT.md section 7, "Branch probabilities") is at most 2%
// either way stays a branch (gcc's predictable-branch-outcome); without
// one, predictability is not modelled (no profile), so the limits are
// gcc's spirit on x86-64, whose -O2 converts such small diamonds too. Floating values (no cmov for xmm
// registers), floating conditions (their unordered case) and phis with an
// `undefined` input (cmov reads both values: the allocation checker and
// pipe-run at the x64 levels would see an undefined read the branch never
// made) stay branches. A node runs on both paths only if it can fail on no
// input: integer arithmetic, compares, conversions between integers and
// selects, and shifts by a constant below the width; a shift by a variable
// amount (out of range is undefined, an error pipe-run reports, and
// `c < 32 ? x >> c : x` guards exactly that), floating nodes (fptosi of a
// NaN) and anything else keep the branch. (A division that may trap is
// pinned, so its side is not empty.)
// Paper: Allen, Kennedy, Porterfield, Warren, "Conversion of control
// dependence to data dependence" (POPL 1983), in its simplest, local form.
// Invariants needed: the son contract. Kept: the son contract; no control
// node changes (simplify-cfg and dce remove the diamond afterwards).
#include <algorithm>
#include <unordered_set>

#include "ir/probability.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr size_t kMaxSpeculated = 3;
constexpr size_t kMaxPhis = 2;
constexpr size_t kCone = 16;

// A branch whose probability (ir/probability.h: __builtin_expect_with_probability,
// gcc's noreturn and cold predictions) says it almost always goes one way
// (gcc's predictable-branch-outcome, 2%) costs nothing when predicted:
// it stays a branch, as gcc's ifcvt weighs a predictable edge.
bool predictable(const Node& branch) {
  std::optional<uint32_t> p = branch_probability(branch);
  return p && (*p <= kProbPredictable || *p >= kProbOne - kProbPredictable);
}

class IfConvert {
 public:
  explicit IfConvert(Graph& g) : g_(g) {}

  size_t run() {
    size_t changes = 0;
    for (NodeId n = 0; n < g_.size(); ++n)
      if (g_.alive(n) && g_.op(n) == Op::If) changes += convert(n);
    return changes;
  }

 private:
  struct Side {
    NodeId edge = kNone;  // the region's control input for this side
    size_t index = 0;     // its position in the region's control list
  };

  size_t convert(NodeId branch) {
    std::array<NodeId, 2> proj = if_projs(g_, branch);
    if (proj[0] == kNone || proj[1] == kNone) return 0;
    NodeId cond = g_.node(branch).inputs[0];
    if (g_.is_const(cond) || is_float_op(g_.op(cond))) return 0;
    if (predictable(g_.node(branch))) return 0;
    auto [e0, r0] = empty_side(g_, proj[0]);
    auto [e1, r1] = empty_side(g_, proj[1]);
    if (r0 == kNone || r0 != r1) return 0;
    NodeId region = r0;
    const Node& rn = g_.node(region);
    if (rn.control.size() != 2) return 0;
    Side side[2];
    side[0] = {e0, index_of(rn, e0)};
    side[1] = {e1, index_of(rn, e1)};
    std::vector<NodeId> phis;
    for (NodeId u : g_.users(region)) {
      if (g_.op(u) != Op::Phi || std::find(phis.begin(), phis.end(), u) != phis.end()) continue;
      std::optional<ValueType> t = result_type(g_, u);
      if (!t) continue;  // the memory phi: both sides pass the same state on
      if (is_float(*t)) return 0;
      const Node& phi = g_.node(u);
      if (phi.inputs[side[0].index] == phi.inputs[side[1].index]) continue;  // simplify-cfg's
      for (const Side& s : side)
        if (g_.op(phi.inputs[s.index]) == Op::Undef) return 0;
      phis.push_back(u);
    }
    if (phis.empty() || phis.size() > kMaxPhis) return 0;
    for (const Side& s : side) {
      std::vector<NodeId> values;
      for (NodeId phi : phis) values.push_back(g_.node(phi).inputs[s.index]);
      if (speculated(values, phis) > kMaxSpeculated) return 0;
    }
    std::sort(phis.begin(), phis.end());
    for (NodeId phi : phis) {
      const Node& p = g_.node(phi);
      Node sel;
      sel.op = Op::Select;
      sel.literals = {p.literals.empty() ? Literal::string(std::string(value_type_name(*result_type(g_, phi))))
                                         : p.literals[0]};
      sel.inputs = {cond, p.inputs[side[0].index], p.inputs[side[1].index]};
      sel.loc = g_.node(branch).loc;
      NodeId s = g_.add(std::move(sel));
      g_.replace_uses(phi, s);
      g_.kill(phi);
    }
    return phis.size();
  }

  static size_t index_of(const Node& region, NodeId edge) {
    return static_cast<size_t>(std::find(region.control.begin(), region.control.end(), edge) -
                               region.control.begin());
  }

  // How many nodes the values need that nothing but them (and the phis)
  // uses: what the side computed for the merge alone, now run on both paths.
  // Constants, symbols, params and pinned nodes cost nothing here (they are
  // computed where they are anyway). A cone larger than kCone counts as too
  // large.
  size_t speculated(const std::vector<NodeId>& values, const std::vector<NodeId>& phis) const {
    std::unordered_set<NodeId> cone;
    std::vector<NodeId> work(values.begin(), values.end());
    auto free = [&](NodeId n) {
      OpId op = g_.op(n);
      return op == Op::Const || op == Op::SymAddr || op == Op::Param || op == Op::StackSlot || op == Op::Phi ||
             !g_.node(n).control.empty() || !g_.has(n, PURE);
    };
    while (!work.empty()) {
      NodeId n = work.back();
      work.pop_back();
      if (cone.count(n) || free(n)) continue;
      bool only_here = true;
      for (NodeId u : g_.users(n))
        if (!cone.count(u) && std::find(phis.begin(), phis.end(), u) == phis.end() &&
            std::find(values.begin(), values.end(), u) == values.end())
          only_here = false;
      if (!only_here) continue;
      if (!speculatable(n)) return kCone + 1;
      cone.insert(n);
      if (cone.size() > kCone) return cone.size();
      for (NodeId i : g_.node(n).inputs) work.push_back(i);
    }
    return cone.size();
  }

  bool speculatable(NodeId n) const {
    const Node& nd = g_.node(n);
    switch (eval_class(nd.op)) {
      case EvalClass::Unary:
      case EvalClass::Binary:
      case EvalClass::Compare:
      case EvalClass::Convert:
      case EvalClass::Select: return true;
      case EvalClass::Shift: {
        std::optional<ValueType> t = literal_value_type(nd.literals[0]);
        return t && g_.is_const(nd.inputs[1]) && g_.const_value_of(nd.inputs[1]) < type_bits(*t);
      }
      default: return false;
    }
  }

  Graph& g_;
};

}  // namespace

size_t if_convert(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  if (!has_op(fn, Op::If) || !has_op(fn, Op::Phi)) return 0;
  Graph g(fn, cache);
  size_t changes = IfConvert(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
