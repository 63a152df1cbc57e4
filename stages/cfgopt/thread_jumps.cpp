// thread_jumps.cpp - jump threading: a predecessor whose values decide a
// block's conditional jump goes straight to the target it would take.
//
// Algorithm. A candidate block B holds only phis, one compare and the
// x64:jcc that reads it (the shape son2cfg gives `if (found)` after a loop,
// or the join of `a && b`): no other work would be skipped by bypassing it.
// For each incoming edge P -> B (region control input j), the compare's
// inputs are known along that edge when each is an x64:movi, directly or as
// the input j of one of B's phis; the flags are then computed with
// common/x64/eval_x64.h (x64_flags_cmp / x64_flags_test, the functions pipe-run
// executes) and the condition with x64_cond, which names the successor X
// the jump takes from P. The edge P -> B becomes P -> X; each phi of X gets,
// for the new edge, the value it gets along B -> X, read through B's phis
// at input j. When B loses its last predecessor, CfgEdit::finish() removes
// it. Edges are threaded one at a time; B is looked at again until none of
// its edges is threadable, so each block costs O(edges * phis).
//
// Conditions (what keeps the cfg-x64 contract):
//  - B's phis are used only by the compare and by phis of B's successors
//    on the edge from B: after threading, B no longer dominates what it
//    dominated, so no other use of its values could stay dominated;
//  - a value flowing into X along B -> X that is not one of B's phis is
//    defined in a block strictly dominating B, which therefore dominates P:
//    it may flow along the new edge P -> X;
//  - every block that dominated X still does (a path through P reached B,
//    hence passed it), so the values used in X and below stay dominated;
//  - P's two successors stay distinct (CfgEdit's edge convention), and B is
//    not its own successor;
//  - a movi narrower than 32 bits is a known value only when the compare
//    reads no more bits than it wrote (x64_facts.h: the rest is junk).
// Invariants needed and kept: the cfg-x64 contract.
// Paper: the classic transformation as in Bodik, Gupta and Soffa,
// "Interprocedural conditional branch elimination" (PLDI 1997), restricted
// to the local case whose correlation is a constant phi input.
#include <optional>

#include "cfg_edit.h"
#include "x64/eval_x64.h"
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

namespace {

class Threader {
 public:
  explicit Threader(Function& fn) : g_(fn), users_(fn.nodes.size()) {
    for (NodeId n = 0; n < fn.nodes.size(); ++n)
      for (NodeId in : fn.nodes[n].inputs) users_[in].push_back(n);
  }

  size_t run() {
    size_t changes = 0;
    for (uint32_t b = 1; b < g_.num_blocks(); ++b) {
      if (!candidate(b)) continue;
      while (thread_one(b)) ++changes;
    }
    if (changes > 0) g_.finish();
    return changes;
  }

 private:
  bool candidate(uint32_t b) const {
    const std::vector<NodeId>& nodes = g_.block(b).nodes;
    size_t k = g_.phis(b).size();
    if (nodes.size() != k + 2) return false;
    NodeId cmp = nodes[k], jcc = nodes[k + 1];
    if (!is_compare(g_.op(cmp)) || g_.op(jcc) != Op::X64Jcc || g_.node(jcc).inputs[0] != cmp) return false;
    if (g_.num_succs(b) != 2 || !g_.can_redirect(b) || g_.succ(b, 0) == b || g_.succ(b, 1) == b) return false;
    for (size_t i = 0; i < k; ++i)
      for (NodeId user : users_[nodes[i]]) {
        if (user == cmp) continue;
        uint32_t ub = g_.placed_in(user);
        if (g_.op(user) != Op::Phi || (ub != g_.succ(b, 0) && ub != g_.succ(b, 1))) return false;
        // Only on the edge from b.
        size_t pos = g_.edge_position(b, ub);
        const InputList& in = g_.node(user).inputs;
        for (size_t p = 0; p < in.size(); ++p)
          if (in[p] == nodes[i] && p != pos) return false;
      }
    return true;
  }

  // The value v has along the edge into b at region position j.
  NodeId along(uint32_t b, NodeId v, size_t j) const {
    return g_.op(v) == Op::Phi && g_.placed_in(v) == b ? g_.node(v).inputs[j] : v;
  }

  // The successor index of b the jump takes along edge j, if known.
  std::optional<size_t> decided(uint32_t b, size_t j) const {
    const std::vector<NodeId>& nodes = g_.block(b).nodes;
    NodeId cmp = nodes[nodes.size() - 2], jcc = nodes.back();
    const Node& c = g_.node(cmp);
    std::optional<unsigned> bits = type_bits_at(c, 0);
    std::optional<x64::Cond> cc = cond_at(g_.node(jcc), 0);
    if (!bits || !cc) return std::nullopt;
    uint64_t value[2] = {0, 0};
    for (size_t i = 0; i < c.inputs.size() && i < 2; ++i) {
      std::optional<uint64_t> v = known_value(g_.function(), along(b, c.inputs[i], j), *bits);
      if (!v) return std::nullopt;
      value[i] = *v;
    }
    std::optional<uint64_t> flags = compare_flags(c, value[0], value[1]);
    if (!flags) return std::nullopt;
    return x64_cond(*cc, *flags) ? 0 : 1;
  }

  bool thread_one(uint32_t b) {
    std::vector<uint32_t> preds = g_.preds(b);
    for (size_t j = 0; j < preds.size(); ++j) {
      uint32_t p = preds[j];
      if (!g_.can_redirect(p)) continue;
      std::optional<size_t> taken = decided(b, j);
      if (!taken) continue;
      uint32_t x = g_.succ(b, *taken);
      if (x == p) continue;
      size_t index = g_.block(p).successors[0] == g_.block(b).node ? 0 : 1;
      if (g_.num_succs(p) == 2 && g_.succ(p, 1 - index) == x) continue;  // would make P's successors equal
      size_t from_b = g_.edge_position(b, x);
      std::vector<NodeId> values;
      std::vector<NodeId> phis = g_.phis(x);
      bool local = false;
      for (NodeId phi : phis) {
        values.push_back(along(b, g_.node(phi).inputs[from_b], j));
        local = local || g_.placed_in(values.back()) == b;  // a phi of b through a loop: keep the edge
      }
      if (local) continue;
      g_.redirect(p, index, x, values);
      for (size_t i = 0; i < phis.size(); ++i) users_[values[i]].push_back(phis[i]);
      return true;
    }
    return false;
  }

  CfgEdit g_;
  std::vector<std::vector<NodeId>> users_;
};

}  // namespace

size_t thread_jumps(Function& fn, const ModuleHeader&, FunctionCache&) { return Threader(fn).run(); }

}  // namespace pl::cfgopt
