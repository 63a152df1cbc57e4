// schedule_late.cpp - schedule_late: the block of every floating node (Click
// 1995, "Schedule Late" and "Selecting a Block").
//
// Nodes are taken users first (schedule_early's postorder, backwards), so
// every user already has its final block. The latest legal block is the
// least common ancestor, in the dominator tree, of the blocks of the uses; a
// phi uses its input i at the end of predecessor i, not in its own block. A
// use through a tuple proj counts as a use of the tuple. The node then goes
// to the block of least loop depth on the dominator-tree path from that
// latest block up to its earliest one, the deepest such block on ties: loop
// invariants leave their loops, and code that only one branch uses sinks into
// that branch (its uses' LCA is in the branch).
//
// Memory anti-dependences (Click's paper leaves them to the reader; Simple's
// find_anti_dep, and the place where C2 and Simple had bugs): a node that
// reads memory state M without producing memory (a load) must execute while
// M is the current memory. Every other node that consumes M and produces a
// newer state (a store, call, copy, volatile access) ends M's lifetime, and
// so does a phi that takes M along an edge (the memory after the edge is the
// phi's). So the load's latest block is also clamped to the LCA of those
// consumers' blocks (the predecessor's for a phi): the load then dominates
// each of them, and executes before it on every path; within one block,
// local_schedule orders the load first. This clamps harder than C2's
// version (a store on a branch the load's uses never reach still lifts the
// load above the branch); it is simple and cannot miss a path. At `son`
// every load is pinned, so this matters for floating memory readers of
// later levels; a memory producer must be pinned (reported otherwise).
//
// Departures from the paper: the block selection walks the dominator path
// with binary-lifted minima (O(log n) per node, not O(path length)), and the
// LCA is binary-lifted too, so the pass is O(n log n). Nodes whose meaning
// can fail (a shift by an amount that is not a constant in range: pipe-run
// reports it as undefined behaviour) are not hoisted: they stay at the LCA
// of their uses, never executed on a path the program would not have
// computed them on. An x64 flags producer stays at its consumer's block
// (flags do not live across blocks). An x64 constant only phis use stays
// at the LCA of its phi edges (only_phi_constant). A node no live node uses stays at its
// earliest block.
#include <optional>

#include "eval.h"
#include "son2cfg.h"

namespace pl::son2cfg {

namespace {

// Per dominator-tree node and level k: the block of least loop depth among
// the 2^k blocks from v upwards (the lowest one on ties).
class ShallowestOnPath {
 public:
  ShallowestOnPath(const TreeIndex& domi, const std::vector<uint32_t>& loop_depth)
      : domi_(domi), depth_(loop_depth) {
    const size_t n = loop_depth.size();
    best_.assign(domi.levels(), std::vector<uint32_t>(n));
    for (uint32_t v = 0; v < n; ++v) best_[0][v] = v;
    for (size_t k = 1; k < best_.size(); ++k)
      for (uint32_t v = 0; v < n; ++v) {
        uint32_t mid = domi.up(k - 1)[v];
        best_[k][v] = mid == kNone ? best_[k - 1][v] : pick(best_[k - 1][v], best_[k - 1][mid]);
      }
  }

  // The best block on the path from `low` up to `high` (an ancestor), both included.
  uint32_t query(uint32_t low, uint32_t high) const {
    uint32_t count = domi_.depth(low) - domi_.depth(high) + 1;
    uint32_t best = low;
    for (size_t k = 0; count != 0; ++k, count >>= 1) {
      if (!(count & 1)) continue;
      best = pick(best, best_[k][low]);
      low = domi_.up(k)[low];
    }
    return best;
  }

 private:
  uint32_t pick(uint32_t lower, uint32_t upper) const { return depth_[upper] < depth_[lower] ? upper : lower; }

  const TreeIndex& domi_;
  const std::vector<uint32_t>& depth_;
  std::vector<std::vector<uint32_t>> best_;
};

class Late {
 public:
  Late(Graph& g, const TreeIndex& domi, const Loops& loops, const std::vector<uint32_t>& early)
      : g_(g), domi_(domi), early_(early), shallowest_(domi, loops.depth) {}

  void place_fixed_tuple_projs() {
    for (NodeId id = 0; id < g_.fn.nodes.size(); ++id)
      if (g_.role[id] == Role::TupleProj) {
        NodeId tuple = g_.node(id).inputs[0];
        Role r = g_.role[tuple];
        if (r != Role::Floating && r != Role::TupleProj) g_.block[id] = g_.block[tuple];
      }
  }

  void place(NodeId id) {
    if (g_.role[id] != Role::Floating) return;  // dead, or a tuple proj (placed with its tuple)
    if (produces_memory(g_.node(id).op))
      g_.fail(id, "a node that produces memory needs a control input (memory operations are pinned)");
    uint32_t lca = kNone;
    for (const Users::Use* u = g_.users.first(id); u != g_.users.last(id); ++u) {
      if (g_.role[u->user] == Role::TupleProj) {
        for (const Users::Use* w = g_.users.first(u->user); w != g_.users.last(u->user); ++w)
          lca = domi_.lca(lca, use_block(*w));
      } else {
        lca = domi_.lca(lca, use_block(*u));
      }
    }
    lca = clamp_below_memory_consumers(id, lca);
    uint32_t chosen = early_[id];
    if (lca != kNone) {
      if (!domi_.is_ancestor(early_[id], lca))
        g_.fail(id, "no block can hold the node: its inputs are available only from the block of " +
                        node_name(g_.flow.head[early_[id]]) + ", which does not dominate the block of " +
                        node_name(g_.flow.head[lca]) + " where it is needed (or where the memory it reads is "
                        "overwritten)");
      chosen = may_fail(id) || produces_flags(g_.node(id).op) || only_phi_constant(id)
                   ? lca
                   : shallowest_.query(lca, early_[id]);
    }
    g_.block[id] = chosen;
    for (const Users::Use* u = g_.users.first(id); u != g_.users.last(id); ++u)
      if (g_.role[u->user] == Role::TupleProj) g_.block[u->user] = chosen;
  }

 private:
  // The block where a use needs the value; kNone for a dead user or a phi
  // input along an edge from unreachable code.
  uint32_t use_block(const Users::Use& u) const {
    switch (g_.role[u.user]) {
      case Role::Dead: return kNone;
      case Role::Phi: return g_.phi_pred(u.user, u.slot);
      default: return g_.block[u.user];
    }
  }

  uint32_t clamp_below_memory_consumers(NodeId id, uint32_t lca) const {
    const Node& m = g_.node(id);
    for (uint32_t s = 0; s < m.inputs.size(); ++s) {
      if (!is_memory_slot(m.op, s)) continue;
      NodeId mem = m.inputs[s];
      for (const Users::Use* u = g_.users.first(mem); u != g_.users.last(mem); ++u) {
        if (u->user == id) continue;
        Role r = g_.role[u->user];
        if (r == Role::Phi || (r != Role::Dead && produces_memory(g_.node(u->user).op)))
          lca = domi_.lca(lca, use_block(*u));
      }
    }
    return lca;
  }

  // An x64 constant that only phis use: hoisted, it would hold a register
  // through the loop and still need a copy on each edge (a phi is redefined
  // in the loop, so it cannot share the constant's register); at its
  // latest block it is made where the edge needs it, in the phi's place.
  bool only_phi_constant(NodeId id) const {
    if (g_.node(id).op != Op::X64MovI) return false;
    for (const Users::Use* u = g_.users.first(id); u != g_.users.last(id); ++u)
      if (g_.role[u->user] != Role::Phi && g_.role[u->user] != Role::Dead) return false;
    return true;
  }

  // A generic shift whose amount is not a constant below the width.
  bool may_fail(NodeId id) const {
    const Node& m = g_.node(id);
    if (eval_class(m.op) != EvalClass::Shift) return false;
    if (m.inputs.size() != 2 || m.literals.empty()) return true;
    const Node& amount = g_.node(m.inputs[1]);
    std::optional<ValueType> type = literal_value_type(m.literals[0]);
    bool same_type = amount.op == Op::Const && amount.literals.size() == 2 && amount.literals[0] == m.literals[0];
    if (!type || !same_type || !amount.literals[1].is_int()) return true;
    return !shift_in_range(const_value(amount.literals[1], type_bits(*type)), type_bits(*type));
  }

  Graph& g_;
  const TreeIndex& domi_;
  const std::vector<uint32_t>& early_;
  ShallowestOnPath shallowest_;
};

}  // namespace

void schedule_late(Graph& g, const TreeIndex& domi, const Loops& loops, const std::vector<uint32_t>& early,
                   const std::vector<NodeId>& postorder) {
  Late late(g, domi, loops, early);
  late.place_fixed_tuple_projs();
  for (size_t i = postorder.size(); i-- > 0;) late.place(postorder[i]);
}

}  // namespace pl::son2cfg
