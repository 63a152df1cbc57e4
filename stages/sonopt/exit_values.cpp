// exit_values.cpp - exit-value replacement and deletion of loops left
// without effects: a loop that only computes values used after it (six
// nested `for.. x++` loops, a sum of i, a pointer walked to the end) is
// replaced by those values' closed forms, and the loop goes.
//
// Algorithm, for each simple loop (loops.h), inner loops first, in one
// application (an inner loop's closed forms make the loop around it a
// counting loop in turn, scev.h):
//  1. Shape: the header ends with the only exit test (every other block of
//     the loop ends with a jump or an if whose successors are all in the
//     loop; no return), the header region has one entry and one back edge,
//     and the loop's blocks hold no node that must run (dce.cpp must_run:
//     stores, calls, volatile accesses, divisions that may trap). Loads
//     may go (they have no effect; one that would fault is undefined
//     behaviour, so dropping it is allowed).
//  2. Finiteness: the trip count T is known exactly (scev.h trip_count), and
//     the loop's blocks hold no cycle but through its own back edge and the
//     back edges of inner loops already deleted in this application (an
//     inner loop that stays, or an irreducible cycle, may not terminate).
//     Nothing is assumed from C11 6.8.5p6 (a loop without side effects
//     whose controlling expression is not a constant may be assumed to
//     terminate): a loop without a trip count stays, even when it has no
//     effect.
//  3. Values used after the loop: every input edge into a node outside the
//     loop (a pinned node of a block outside it, or a phi whose input comes
//     from such a block) from a node of the loop (a pinned node of its
//     blocks, or a floating node reading one, transitively). Each such
//     value must have a closed form: its evolution (scev.h) after T trips,
//     or a floating pure node whose inputs have closed forms (rebuilt after
//     the loop: `x + y` with y computed after the loop). All or nothing: if
//     one value has none, the loop is left as it is (a closed form beside a
//     loop that still runs costs more than it saves).
//  4. The edges are redirected to the closed forms (new floating nodes),
//     and the exit test becomes a constant that leaves: the loop's body is
//     unreachable, and dce (which this pass triggers) removes it
//     (simplify-cfg then merges the header left).
// Paper: exit-value replacement and deletion of dead loops as in LLVM's
// IndVarSimplify (rewriteLoopExitValues) and LoopDeletion, over the chains
// of recurrences of Bachmann, Wang and Zima (ISSAC 1994); trip counts as
// in LLVM's ScalarEvolution (howFarToZero, howManyLessThans), without nsw
// facts (the IR has none).
// Invariants needed: the son contract. Kept: the son contract (the closed
// forms are floating pure nodes over values available at the loop's exit:
// the header phis' entry inputs and nodes defined before the loop); every
// value read after the loop is the same bit for bit (scev.h: wrapping
// arithmetic throughout); a deleted loop had no effect and stopped after T
// trips, so the program does the same minus the loop's time.
#include <algorithm>
#include <map>
#include <memory>

#include "loops.h"
#include "passes.h"
#include "scev.h"

namespace pl::sonopt {

namespace {

class ExitValues {
 public:
  explicit ExitValues(Graph& g) : g_(g), cfg_holder_(g.son_cfg()), cfg_(*cfg_holder_) {}

  size_t run() {
    forest_ = find_loops(g_, cfg_);
    effects_.assign(cfg_.blocks.size(), kUnknown);
    size_t changes = 0;
    deleted_.assign(cfg_.blocks.size(), false);
    for (const Loop& loop : forest_.loops)
      if (fold(loop)) ++changes;
    return changes;
  }

 private:
  // Whether block b holds a node that must run (dce.cpp must_run: pinned
  // nodes hang off their block's control point).
  bool has_effect(uint32_t b) {
    if (effects_[b] == kUnknown) {
      NodeId block = cfg_.blocks[b];
      effects_[b] = kNo;
      for (NodeId u : g_.users(block))
        if (g_.alive(u) && !g_.node(u).control.empty() && g_.node(u).control[0] == block && must_run(g_, u))
          effects_[b] = kYes;
    }
    return effects_[b] == kYes;
  }

  // The loop's successor of the header that stays.
  uint32_t stay_successor(const Loop& loop) const {
    const std::vector<uint32_t>& succs = cfg_.graph.succs[loop.header];
    return loop.contains(succs[0]) ? succs[0] : succs[1];
  }

  bool shape_ok(const Loop& loop) {
    if (!loop.simple() || loop.latches.size() != 1) return false;
    if (g_.node(cfg_.blocks[loop.header]).control.size() != 2) return false;
    for (uint32_t b : loop.blocks) {
      if (has_effect(b)) return false;
      NodeId t = cfg_.terminator[b];
      if (t != kNone && g_.op(t) != Op::If && g_.op(t) != Op::Jump) return false;
      const std::vector<uint32_t>& succs = cfg_.graph.succs[b];
      if (succs.empty()) return false;
      if (b == loop.header) continue;
      for (uint32_t s : succs)
        if (!loop.contains(s)) return false;
    }
    return true;
  }

  // No cycle among the loop's blocks but through its back edge and the
  // back edges of inner loops deleted here (whose headers now always leave).
  bool acyclic_body(const Loop& loop) const {
    std::map<uint32_t, uint8_t> state;  // 1 on the stack, 2 done
    std::vector<std::pair<uint32_t, size_t>> stack = {{loop.header, 0}};
    state[loop.header] = 1;
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      const std::vector<uint32_t>& succs = cfg_.graph.succs[b];
      if (next == succs.size()) {
        state[b] = 2;
        stack.pop_back();
        continue;
      }
      uint32_t s = succs[next++];
      if (s == loop.header || !loop.contains(s)) continue;
      if (b != loop.header && deleted_[b] && s == deleted_stay_.at(b)) continue;
      uint8_t& st = state[s];
      if (st == 1) return false;
      if (st == 0) {
        st = 1;
        stack.push_back({s, 0});
      }
    }
    return true;
  }

  // The nodes of the loop: pinned nodes of its blocks (phis and control
  // included) and the floating nodes reading them, transitively; marked in
  // marks_ (this walk's stamp).
  std::vector<NodeId> loop_set(const Loop& loop) {
    marks_.start(g_.size());
    std::vector<NodeId> set;
    for (uint32_t b : loop.blocks) {
      NodeId block = cfg_.blocks[b];
      if (!marks_.seen(block)) set.push_back(block);
      for (NodeId u : g_.users(block))
        if (g_.alive(u) && !g_.node(u).control.empty() && g_.node(u).control[0] == block &&
            !is_control_point(g_, u) && !marks_.seen(u))
          set.push_back(u);
    }
    for (size_t k = 0; k < set.size(); ++k)
      for (NodeId u : g_.users(set[k]))
        if (g_.alive(u) && g_.node(u).control.empty() && !marks_.seen(u)) set.push_back(u);
    return set;
  }
  bool in_set(NodeId n) const { return n < marks_.mark.size() && marks_.mark[n] == marks_.stamp; }

  // Whether user u's input i is read outside the loop.
  bool read_outside(const Loop& loop, NodeId u, size_t i) const {
    const Node& nd = g_.node(u);
    if (nd.op == Op::Phi) {
      NodeId region = nd.control[0];
      uint32_t from = LoopForest::edge_source(g_, cfg_, g_.node(region).control[i]);
      return from == DomTree::kNone || !loop.contains(from);
    }
    uint32_t b = cfg_.block_of_node(g_, u);
    return b == DomTree::kNone || !loop.contains(b);
  }

  struct Use {
    NodeId user;
    size_t index;
  };

  // Whether loop node n has a closed form after `trips` trips (see step 3):
  // whether it has one. Floating nodes without an evolution are rebuilt
  // over their inputs' closed forms (materialize_value).
  bool closed_form(Scev& scev, NodeId n, ExprId trips, int depth) {
    if (std::optional<Chrec> ch = scev.evolution(n)) return scev.at(*ch, trips).has_value();
    if (depth > 16 || !g_.node(n).control.empty() || !g_.has(n, PURE) || !in_set(n)) return false;
    for (NodeId i : g_.node(n).inputs)
      if (in_set(i) && !closed_form(scev, i, trips, depth + 1)) return false;
    return true;
  }

  NodeId materialize_value(Scev& scev, NodeId n, ExprId trips, Loc loc, std::map<NodeId, NodeId>& done) {
    if (!in_set(n)) return n;
    auto it = done.find(n);
    if (it != done.end()) return it->second;
    NodeId r;
    if (std::optional<Chrec> ch = scev.evolution(n)) {
      r = scev.materialize(g_, *scev.at(*ch, trips), loc);
    } else {
      Node copy = g_.node(n);
      for (NodeId& i : copy.inputs) i = materialize_value(scev, i, trips, loc, done);
      r = g_.add(std::move(copy));
    }
    done[n] = r;
    return r;
  }

  bool fold(const Loop& loop) {
    if (!shape_ok(loop)) return false;
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    if (!test) return false;
    Scev scev(g_, cfg_, loop, memo_);
    std::optional<ExprId> trips = scev.trip_count(*test);
    if (!trips || !acyclic_body(loop)) return false;
    std::vector<NodeId> set = loop_set(loop);
    std::vector<std::pair<NodeId, Use>> outside;  // value, its use
    for (NodeId n : set) {
      for (NodeId u : g_.users(n)) {
        if (in_set(u) || !g_.alive(u)) continue;
        const Node& nd = g_.node(u);
        for (size_t i = 0; i < nd.inputs.size(); ++i)
          if (nd.inputs[i] == n && read_outside(loop, u, i)) outside.push_back({n, {u, i}});
      }
    }
    std::sort(outside.begin(), outside.end(), [](const auto& a, const auto& b) {
      return std::tie(a.second.user, a.second.index) < std::tie(b.second.user, b.second.index);
    });
    outside.erase(std::unique(outside.begin(), outside.end(),
                              [](const auto& a, const auto& b) {
                                return a.second.user == b.second.user && a.second.index == b.second.index;
                              }),
                  outside.end());
    for (const auto& [value, use] : outside)
      if (!closed_form(scev, value, *trips, 0)) return false;
    // Commit.
    Loc loc = g_.node(test->branch).loc;
    std::map<NodeId, NodeId> done;
    for (const auto& [value, use] : outside)
      g_.set_input(use.user, use.index, materialize_value(scev, value, *trips, loc, done));
    NodeId old = test->cond;
    g_.set_input(test->branch, 0, g_.add_const(ValueType::I32, test->stays_on_true ? 0 : 1, g_.node(old).loc));
    g_.kill_if_unused(old);
    deleted_[loop.header] = true;
    deleted_stay_[loop.header] = stay_successor(loop);
    return true;
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_holder_;
  const SonCfg& cfg_;  // valid for the whole application: only values and floating nodes change
  LoopForest forest_;
  enum : uint8_t { kUnknown, kNo, kYes };
  std::vector<uint8_t> effects_;    // by block: holds a node that must run (has_effect)
  std::vector<bool> deleted_;       // by block: the header of a loop deleted here
  std::map<uint32_t, uint32_t> deleted_stay_;  // such a header -> its successor in the loop
  WalkMarks marks_;     // the loop set of the loop being folded
  InvariantMemo memo_;  // shared by the loops' Scevs
};

}  // namespace

size_t exit_values(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  if (!has_loop_carried_phi(fn)) return 0;
  Graph g(fn, cache);
  size_t changes = ExitValues(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
