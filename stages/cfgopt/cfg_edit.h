// cfg_edit.h - the editable cfg-x64 function every cfgopt pass works on.
//
// A CfgEdit wraps one cfg-x64 Function for the length of one pass
// application. It indexes blocks by their block node and nodes by the block
// they are placed in, and offers the few edits the passes make: redirect one
// cfg edge (the region's control input and the matching phi inputs move
// with it), move nodes between blocks, replace every use of a node, add a
// node, mark nodes dead. finish() then restores the cfg-x64 contract in one
// sweep: blocks no longer reachable from block 0 go (with their edges'
// region and phi inputs), phis and pure nodes nobody uses go, the surviving
// nodes are renumbered in their old order (an untouched function keeps every
// id, so a run that changes nothing is byte-identical), and the dominance
// section is recomputed (common/dominance; the verifier checks it with its
// own Lengauer-Tarjan).
//
// Edge convention. A region lists its predecessors' terminators, one per
// edge; a jcc whose two successors are the same block appears twice, and
// which of the two entries belongs to which successor is not recorded. So
// redirect() refuses such a block (can_redirect() says when): passes leave
// those edges alone.
//
// Invariants needed: the cfg-x64 contract on entry. Kept by finish(), given
// that passes only redirect edges to blocks whose phi inputs they supply
// with values that dominate the new predecessor, and only move or add
// nodes where their inputs dominate them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/ir.h"

namespace pl::cfgopt {

inline constexpr uint32_t kNoBlock = ~0u;

class CfgEdit {
 public:
  explicit CfgEdit(Function& fn);

  Function& function() { return fn_; }
  const Function& function() const { return fn_; }
  const Node& node(NodeId n) const { return fn_.nodes[n]; }
  Node& node(NodeId n) { return fn_.nodes[n]; }
  OpId op(NodeId n) const { return fn_.nodes[n].op; }
  uint32_t num_blocks() const { return static_cast<uint32_t>(fn_.cfg->blocks.size()); }
  Block& block(uint32_t b) { return fn_.cfg->blocks[b]; }
  const Block& block(uint32_t b) const { return fn_.cfg->blocks[b]; }
  bool block_alive(uint32_t b) const { return !dead_block_[b]; }
  // The block index of a block node, or kNoBlock.
  uint32_t block_index(NodeId block_node) const { return block_of_node_[block_node]; }
  // The block a node is placed in (block nodes: their own block).
  uint32_t placed_in(NodeId n) const { return placed_in_[n]; }
  uint32_t succ(uint32_t b, size_t i) const { return block_index(block(b).successors[i]); }
  size_t num_succs(uint32_t b) const { return block(b).successors.size(); }
  NodeId terminator(uint32_t b) const { return block(b).nodes.back(); }
  // Whether block b holds nothing but its block node and its terminator.
  bool only_terminator(uint32_t b) const { return block(b).nodes.size() == 1; }
  // A block's `nodes` list never holds its block node (ir.h).
  std::vector<NodeId> phis(uint32_t b) const;
  // The predecessor block of each control input of b's block node (region
  // control order; empty for block 0).
  std::vector<uint32_t> preds(uint32_t b) const;
  // The index in b's region control list of the edge from `from` (which
  // must have b as a successor exactly once).
  size_t edge_position(uint32_t from, uint32_t b) const;

  bool alive(NodeId n) const { return !dead_[n]; }
  void kill(NodeId n) { dead_[n] = true; }
  NodeId add(Node n);
  // Every input (not control) edge that reads `old` reads `with` instead.
  void replace_uses(NodeId old, NodeId with);
  // Inserts node n (not placed yet) into block b right before position pos
  // of its nodes list.
  void place(NodeId n, uint32_t b, size_t pos);
  // Number of input edges from live nodes that read n.
  std::vector<uint32_t> use_counts() const;

  // Whether successor edge `index` of block `from` may be redirected (the
  // block's successors are distinct).
  bool can_redirect(uint32_t from) const;
  // Successor `index` of `from` becomes `to`: the old target loses the
  // edge's region and phi inputs, `to`'s region gains `from`'s terminator
  // and each phi of `to` (in block order) gains the matching entry of
  // phi_values. A debug binding at the old target's start other than its
  // phis' gets its variable a kill at the end of `from` (the new path
  // skips the assignment: unknown from there until its next binding).
  void redirect(uint32_t from, size_t index, uint32_t to, std::span<const NodeId> phi_values);
  // Appends block `from`'s body (without its phis, which must be gone) to
  // block `into`, whose terminator must have been killed and removed; the
  // moved pinned nodes hang off `into`'s block node; `into` takes `from`'s
  // successors; `from` dies. Debug bindings at `from`'s start take effect
  // where `into`'s code ended: after its last memory state, else at its
  // start (finish maps them; a binding at any other block node that dies
  // becomes lost).
  void append_block(uint32_t into, uint32_t from);
  void remove_from_block(NodeId n);
  // Removes the region control input at `position` of block `to` and the
  // matching input of each of its phis.
  void drop_edge(uint32_t to, size_t position);

  // Restores the contract (see the header comment); returns the number of
  // nodes it removed besides those already killed.
  size_t finish();

 private:
  Function& fn_;
  std::vector<uint32_t> block_of_node_;
  std::vector<uint32_t> placed_in_;
  std::vector<bool> dead_;
  std::vector<bool> dead_block_;
  void kill_bindings_bypassed(uint32_t from, uint32_t b);
  std::vector<NodeId> bypassed_heads_;  // blocks whose start bindings an edge skipped (killed before)
  std::vector<std::pair<NodeId, NodeId>> moved_positions_;  // append_block: from's node -> the position in into
};

}  // namespace pl::cfgopt
