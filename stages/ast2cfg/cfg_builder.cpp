// cfg_builder.cpp - the block builder of ast2cfg (see cfg_builder.h).
//
// Invariants it keeps: every node it creates is placed in exactly one block
// (or is a block node); a pinned node's control is its own block's node;
// every block that finish() keeps ends with exactly one terminator and is
// reachable from block 0. finish() is linear in the number of nodes and
// edges; the depth-first walk uses an explicit stack.
#include "cfg_builder.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace pl {

namespace {
constexpr NodeId kNoNode = UINT32_MAX;
}

CfgBuilder::CfgBuilder(Loc loc, size_t expected_nodes) {
  nodes_.reserve(expected_nodes);
  nodes_.push_back(Node{.op = Start, .loc = loc});
  blocks_.push_back(Block{0, {}, {}});
  current_ = 0;
}

uint32_t CfgBuilder::new_block(Loc loc) {
  NodeId region = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(Node{.op = Region, .loc = loc});
  blocks_.push_back(Block{region, {}, {}});
  return static_cast<uint32_t>(blocks_.size() - 1);
}

void CfgBuilder::set_block_loc(uint32_t block, Loc loc) { nodes_[blocks_[block].node].loc = loc; }

void CfgBuilder::switch_to(uint32_t block) {
  if (is_open() || blocks_[block].terminated) throw std::logic_error("ast2cfg: entering a block twice");
  current_ = block;
}

uint32_t CfgBuilder::open_block(Loc loc) {
  if (!is_open()) current_ = new_block(loc);
  return current_;
}

uint32_t CfgBuilder::detach(Loc loc) {
  uint32_t block = open_block(loc);
  current_ = kNoBlock;
  return block;
}

NodeId CfgBuilder::add_node(Op op, Loc loc, LiteralList literals, InputList inputs, NodeId control) {
  Node n;
  n.op = op;
  if (op_info(op).has(PINNED)) n.control.push_back(control);
  n.literals = std::move(literals);
  n.inputs = std::move(inputs);
  n.loc = loc;
  nodes_.push_back(std::move(n));
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId CfgBuilder::emit(Op op, Loc loc, LiteralList literals, InputList inputs) {
  Block& block = blocks_[open_block(loc)];
  NodeId id = add_node(op, loc, std::move(literals), std::move(inputs), block.node);
  block.nodes.push_back(id);
  return id;
}

NodeId CfgBuilder::emit_at_entry(Op op, Loc loc, LiteralList literals, InputList inputs) {
  NodeId id = add_node(op, loc, std::move(literals), std::move(inputs), blocks_[0].node);
  entry_head_.push_back(id);
  return id;
}

void CfgBuilder::terminate(Op op, Loc loc, InputList inputs, std::vector<uint32_t> successors, LiteralList literals) {
  uint32_t block = open_block(loc);
  emit(op, loc, std::move(literals), std::move(inputs));
  blocks_[block].successors = std::move(successors);
  blocks_[block].terminated = true;
  current_ = kNoBlock;
}

void CfgBuilder::jump(uint32_t target, Loc loc) {
  if (is_open()) terminate(Jump, loc, {}, {target});
}

void CfgBuilder::branch(NodeId condition, uint32_t if_true, uint32_t if_false, Loc loc,
                        std::optional<uint32_t> probability) {
  LiteralList literals;
  if (probability) literals.push_back(Literal::integer(*probability));
  terminate(If, loc, {condition}, {if_true, if_false}, std::move(literals));
}

void CfgBuilder::ret(InputList inputs, Loc loc) { terminate(Return, loc, std::move(inputs), {}); }

// Depth-first from block 0, successors last-first; returns the reverse of
// the postorder.
std::vector<uint32_t> CfgBuilder::reverse_postorder() const {
  std::vector<uint32_t> post;
  std::vector<uint8_t> seen(blocks_.size(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{0, blocks_[0].successors.size()}};  // (block, successors left)
  seen[0] = 1;
  while (!stack.empty()) {
    auto& [b, left] = stack.back();
    if (left == 0) {
      post.push_back(b);
      stack.pop_back();
      continue;
    }
    uint32_t s = blocks_[b].successors[--left];
    if (seen[s]) continue;
    seen[s] = 1;
    stack.emplace_back(s, blocks_[s].successors.size());
  }
  std::reverse(post.begin(), post.end());
  return post;
}

std::vector<NodeId> CfgBuilder::finish(Function& fn) {
  std::vector<uint32_t> order = reverse_postorder();
  // New ids: the kept nodes block by block, then the dropped ones.
  std::vector<NodeId> new_id(nodes_.size(), kNoNode);
  NodeId kept = 0;
  for (uint32_t b : order) {
    if (!blocks_[b].terminated) throw std::logic_error("ast2cfg: a reachable block has no terminator");
    new_id[blocks_[b].node] = kept++;
    if (b == 0)
      for (NodeId id : entry_head_) new_id[id] = kept++;
    for (NodeId id : blocks_[b].nodes) new_id[id] = kept++;
  }
  NodeId dropped = kept;
  for (NodeId& id : new_id)
    if (id == kNoNode) id = dropped++;

  for (NodeId old = 0; old < nodes_.size(); ++old) {
    Node& n = nodes_[old];
    if (new_id[old] >= kept) continue;
    for (NodeId& c : n.control) c = new_id[c];
    for (NodeId& in : n.inputs) {
      if (new_id[in] >= kept) throw std::logic_error("ast2cfg: a node uses a node of an unreachable block");
      in = new_id[in];
    }
  }
  for (uint32_t b : order) {
    NodeId terminator = new_id[blocks_[b].nodes.back()];
    for (uint32_t s : blocks_[b].successors) nodes_[blocks_[s].node].control.push_back(terminator);
  }

  fn.cfg.emplace();
  fn.dominance.reset();
  for (uint32_t b : order) {
    pl::Block out;
    out.node = new_id[blocks_[b].node];
    for (uint32_t s : blocks_[b].successors) out.successors.push_back(new_id[blocks_[s].node]);
    if (b == 0)
      for (NodeId id : entry_head_) out.nodes.push_back(new_id[id]);
    for (NodeId id : blocks_[b].nodes) out.nodes.push_back(new_id[id]);
    fn.cfg->blocks.push_back(std::move(out));
  }

  std::vector<NodeId> old_to_new = new_id;  // dropped nodes: kNoNode
  for (NodeId& id : old_to_new)
    if (id >= kept) id = kNoNode;
  // Apply the permutation in place (one copy of the nodes, not two): each
  // swap puts one node at its final place.
  for (NodeId i = 0; i < nodes_.size(); ++i)
    while (new_id[i] != i) {
      NodeId j = new_id[i];
      std::swap(nodes_[i], nodes_[j]);
      std::swap(new_id[i], new_id[j]);
    }
  nodes_.resize(kept);
  fn.nodes = std::move(nodes_);
  nodes_ = {};
  blocks_.clear();
  entry_head_.clear();
  current_ = kNoBlock;
  return old_to_new;
}

}  // namespace pl
