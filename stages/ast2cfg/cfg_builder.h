// cfg_builder.h - builds one function's cfg-level graph block by block.
//
// The builder has a current block that code is appended to. A terminator
// (jump, if, return) closes it; the next node emitted while no block is open
// opens a fresh block with no predecessor (code after a return, a break or a
// goto: it stays unreachable unless a label or case in it gets a jump). A
// block is entered once, by switch_to(); a region's control inputs are filled
// in by finish(), from the edges that reach it.
//
// finish() keeps the blocks reachable from the entry, in reverse postorder
// of a depth-first walk that visits successors last-first (so an if's true
// side comes before its false side, a loop body before the loop's exit), and
// numbers the nodes in that block order: each block's node, then its nodes.
// A region's control inputs are the terminators of its predecessors in that
// same block order (an if whose two targets are one block appears twice).
#pragma once

#include <optional>

#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace pl {

class CfgBuilder {
 public:
  static constexpr uint32_t kNoBlock = UINT32_MAX;

  // Opens block 0 (the start node) at `loc`; `expected_nodes` sizes the
  // node array up front (pages never touched cost nothing).
  CfgBuilder(Loc loc, size_t expected_nodes);

  // A new empty block (a region with no control inputs yet), not entered.
  uint32_t new_block(Loc loc);
  void set_block_loc(uint32_t block, Loc loc);

  bool is_open() const { return current_ != kNoBlock; }
  // Enters `block`; no block may be open, and `block` must have no
  // terminator yet.
  void switch_to(uint32_t block);
  // The open block (opening a fresh unreachable one if there is none).
  uint32_t open_block(Loc loc);
  // Leaves the open block without a terminator, to come back to it later
  // with switch_to() (a switch emits its dispatch after its body).
  uint32_t detach(Loc loc);

  // Appends a node to the open block (opening one if needed). A pinned
  // opcode gets the block's node as its control input.
  NodeId emit(Op op, Loc loc, LiteralList literals = {}, InputList inputs = {});
  // Appends a node to the entry's head: the nodes that open block 0 before
  // anything emit() adds to it (entrymem, params, stack slots).
  NodeId emit_at_entry(Op op, Loc loc, LiteralList literals = {}, InputList inputs = {});

  // Terminators. jump() does nothing when no block is open (the jump would
  // sit in dead code); branch() and ret() open a dead block if needed. All
  // three leave no block open.
  void jump(uint32_t target, Loc loc);
  // `probability`: of if_true, in parts of 2^31 (ir/probability.h), if known.
  void branch(NodeId condition, uint32_t if_true, uint32_t if_false, Loc loc,
              std::optional<uint32_t> probability = std::nullopt);
  void ret(InputList inputs, Loc loc);

  // Moves the reachable part into fn.nodes and fn.cfg (see the header).
  // Returns each builder id's final id (UINT32_MAX: dropped, unreachable).
  std::vector<NodeId> finish(Function& fn);

 private:
  struct Block {
    NodeId node;
    std::vector<NodeId> nodes;
    std::vector<uint32_t> successors;
    bool terminated = false;
  };
  NodeId add_node(Op op, Loc loc, LiteralList literals, InputList inputs, NodeId control);
  void terminate(Op op, Loc loc, InputList inputs, std::vector<uint32_t> successors, LiteralList literals = {});
  std::vector<uint32_t> reverse_postorder() const;

  std::vector<Node> nodes_;
  std::vector<Block> blocks_;
  std::vector<NodeId> entry_head_;
  uint32_t current_ = kNoBlock;
};

}  // namespace pl
