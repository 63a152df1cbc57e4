// schedule_early.cpp - schedule_early: the earliest block each floating node
// may go to (Click 1995, "Schedule Early"), and the checks that make every
// later placement legal.
//
// A floating node's inputs are defined in blocks that all dominate wherever
// it goes, so they lie on one dominator-tree path; the earliest legal block
// is the deepest of them (the entry block when it has no inputs). Nodes are
// visited inputs first by an iterative depth-first walk over floating inputs
// (pinned nodes and phis end the walk: their blocks are fixed), which also
// yields the postorder schedule_late walks backwards. A tuple proj goes with
// its tuple. A node computed from unreachable code is Dead.
//
// Invariants needed and checked (input that breaks one has no legal
// schedule, and is reported as bad input, naming the node):
//  - a floating node's inputs lie on one dominator path;
//  - no cycle among floating nodes (every cycle goes through a phi);
//  - each input of a pinned node, terminator or phi (at the end of the
//    corresponding predecessor) is available there: its block, or its
//    earliest block, dominates the use.
#include "son2cfg.h"

namespace pl::son2cfg {

namespace {

bool floats(Role r) { return r == Role::Floating || r == Role::TupleProj; }

class Early {
 public:
  Early(Graph& g, const TreeIndex& domi, std::vector<uint32_t>& early) : g_(g), domi_(domi), early_(early) {}

  std::vector<NodeId> run() {
    const size_t n = g_.fn.nodes.size();
    early_.assign(n, kNone);
    state_.assign(n, 0);
    for (NodeId id = 0; id < n; ++id)
      if (floats(g_.role[id]) && state_[id] == 0) walk(id);
    for (NodeId id = 0; id < n; ++id) check_fixed_use(id);
    return std::move(postorder_);
  }

 private:
  enum : uint8_t { kUnseen = 0, kOnStack = 1, kDone = 2 };

  // The block an input is available from (its earliest for floating nodes).
  uint32_t def_block(NodeId user, NodeId d) const {
    switch (g_.role[d]) {
      case Role::Floating:
      case Role::TupleProj: return early_[d];
      case Role::ControlProj: g_.fail(user, "input " + node_name(d) + " is an if's proj, which is no value");
      default: return g_.block[d];
    }
  }

  void walk(NodeId root) {
    std::vector<std::pair<NodeId, uint32_t>> stack{{root, 0}};
    state_[root] = kOnStack;
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const Node& m = g_.node(id);
      if (next < m.inputs.size()) {
        NodeId d = m.inputs[next++];
        if (!floats(g_.role[d])) continue;
        if (state_[d] == kOnStack)
          g_.fail(d, "a cycle of nodes without a control input (a loop needs a phi) goes through " + node_name(id));
        if (state_[d] == kUnseen) {
          state_[d] = kOnStack;
          stack.emplace_back(d, 0);
        }
        continue;
      }
      place(id);
      state_[id] = kDone;
      postorder_.push_back(id);
      stack.pop_back();
    }
  }

  void place(NodeId id) {
    uint32_t deepest = 0;
    for (NodeId d : g_.node(id).inputs) {
      if (g_.role[d] == Role::Dead) {
        g_.role[id] = Role::Dead;
        return;
      }
      uint32_t b = def_block(id, d);
      if (domi_.is_ancestor(deepest, b)) deepest = b;
      else if (!domi_.is_ancestor(b, deepest))
        g_.fail(id, "input " + node_name(d) + " is defined in the block of " + node_name(g_.flow.head[b]) +
                        ", which neither dominates nor is dominated by the block of " +
                        node_name(g_.flow.head[deepest]) + " where another input is: no block sees both");
    }
    early_[id] = deepest;
  }

  void check_fixed_use(NodeId id) {
    Role r = g_.role[id];
    if (r != Role::Pinned && r != Role::Terminator && r != Role::Phi) return;
    const Node& m = g_.node(id);
    for (uint32_t s = 0; s < m.inputs.size(); ++s) {
      uint32_t at = r == Role::Phi ? g_.phi_pred(id, s) : g_.block[id];
      if (at == kNone) continue;  // a phi input along an edge from unreachable code
      NodeId d = m.inputs[s];
      if (g_.role[d] == Role::Dead)
        g_.fail(id, "input " + node_name(d) + " is computed only in unreachable code");
      uint32_t b = def_block(id, d);
      if (!domi_.is_ancestor(b, at))
        g_.fail(id, "input " + node_name(d) + " is not available " +
                        (r == Role::Phi ? "at the end of the predecessor " : "in the block of ") +
                        node_name(g_.flow.head[at]) + ": its block " + node_name(g_.flow.head[b]) +
                        " does not dominate it");
    }
  }

  Graph& g_;
  const TreeIndex& domi_;
  std::vector<uint32_t>& early_;
  std::vector<uint8_t> state_;
  std::vector<NodeId> postorder_;
};

}  // namespace

std::vector<NodeId> schedule_early(Graph& g, const TreeIndex& domi, std::vector<uint32_t>& early) {
  return Early(g, domi, early).run();
}

}  // namespace pl::son2cfg
