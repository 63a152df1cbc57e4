// renumber.cpp - canonical numbering (see renumber.h for the order).
//
// The sea-of-nodes order is an iterative post-order DFS (explicit stack, so a
// 1M-node chain cannot overflow the call stack). A node is numbered when all
// its operands are numbered or are on the DFS stack (a cycle back edge).
#include "ir/renumber.h"

#include <utility>

namespace pl {

namespace {

constexpr NodeId kUnset = ~NodeId{0};

std::vector<NodeId> order_by_blocks(const Function& fn) {
  std::vector<NodeId> order;
  std::vector<char> taken(fn.nodes.size(), 0);
  for (const Block& b : fn.cfg->blocks) {
    order.push_back(b.node);
    taken[b.node] = 1;
    for (NodeId id : b.nodes) {
      order.push_back(id);
      taken[id] = 1;
    }
  }
  for (NodeId id = 0; id < fn.nodes.size(); ++id)
    if (!taken[id]) order.push_back(id);
  return order;
}

// The operands the order respects: control inputs then inputs, except a
// region's control inputs and a phi's inputs, the edges that may close a
// cycle (the verifier requires the rest of a sea-of-nodes graph to be acyclic).
size_t ordered_control_count(const Node& n) {
  return n.op == Region ? 0 : n.control.size();
}
size_t ordered_input_count(const Node& n) {
  return n.op < kNumOps && op_info(n.op).has(PHI) ? 0 : n.inputs.size();
}
size_t ordered_operand_count(const Node& n) { return ordered_control_count(n) + ordered_input_count(n); }
NodeId ordered_operand(const Node& n, size_t k) {
  size_t c = ordered_control_count(n);
  return k < c ? n.control[k] : n.inputs[k - c];
}

std::vector<NodeId> order_defs_before_uses(const Function& fn) {
  const size_t count = fn.nodes.size();
  std::vector<char> used(count, 0);
  for (const Node& n : fn.nodes)
    for (size_t k = 0, count_n = ordered_operand_count(n); k < count_n; ++k) used[ordered_operand(n, k)] = 1;
  std::vector<NodeId> roots;
  for (NodeId id = 0; id < count; ++id)
    if (!used[id]) roots.push_back(id);
  for (NodeId id = 0; id < count; ++id)
    if (used[id]) roots.push_back(id);  // reached already unless on a pure cycle

  enum : char { kNew, kOnStack, kDone };
  std::vector<char> state(count, kNew);
  std::vector<NodeId> order;
  order.reserve(count);
  struct Frame {
    NodeId id;
    uint32_t next, count;  // next operand, ordered operands
  };
  std::vector<Frame> stack;
  auto push = [&](NodeId id) {
    state[id] = kOnStack;
    stack.push_back({id, 0, static_cast<uint32_t>(ordered_operand_count(fn.nodes[id]))});
  };
  for (NodeId root : roots) {
    if (state[root] != kNew) continue;
    push(root);
    while (!stack.empty()) {
      Frame& top = stack.back();
      NodeId id = top.id;
      if (top.next < top.count) {
        NodeId op = ordered_operand(fn.nodes[id], top.next++);
        if (state[op] == kNew) push(op);
        continue;
      }
      state[id] = kDone;
      order.push_back(id);
      stack.pop_back();
    }
  }
  return order;
}

// Applies an old -> new permutation to every reference and reorders nodes.
void apply_numbering(Function& fn, const std::vector<NodeId>& old_to_new) {
  std::vector<Node> nodes(fn.nodes.size());
  for (NodeId old = 0; old < fn.nodes.size(); ++old) nodes[old_to_new[old]] = std::move(fn.nodes[old]);
  for (Node& n : nodes) {
    for (NodeId& c : n.control) c = old_to_new[c];
    for (NodeId& i : n.inputs) i = old_to_new[i];
  }
  fn.nodes = std::move(nodes);
  remap_debug_slots(fn.debug, old_to_new, kNoSlot);
  if (fn.cfg) {
    for (Block& b : fn.cfg->blocks) {
      b.node = old_to_new[b.node];
      for (NodeId& s : b.successors) s = old_to_new[s];
      for (NodeId& id : b.nodes) id = old_to_new[id];
    }
  }
  if (fn.dominance) {
    for (DomBlock& d : fn.dominance->blocks) {
      d.node = old_to_new[d.node];
      if (d.parent) d.parent = old_to_new[*d.parent];
      for (NodeId& f : d.frontier) f = old_to_new[f];
    }
  }
}

}  // namespace

bool defs_precede_uses(const Function& fn) {
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    const Node& n = fn.nodes[id];
    if (n.op != Region)
      for (NodeId c : n.control)
        if (c >= id) return false;
    bool later_input = false;
    for (NodeId in : n.inputs) later_input |= in >= id;
    if (later_input && ordered_input_count(n) != 0) return false;  // the opcode table only when it matters
  }
  return true;
}

std::vector<NodeId> renumber_canonical(Function& fn) {
  std::vector<NodeId> order = fn.cfg ? order_by_blocks(fn) : order_defs_before_uses(fn);
  std::vector<NodeId> old_to_new(fn.nodes.size(), kUnset);
  for (NodeId pos = 0; pos < order.size(); ++pos) old_to_new[order[pos]] = pos;
  apply_numbering(fn, old_to_new);
  return old_to_new;
}

}  // namespace pl
