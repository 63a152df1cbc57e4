// cfg_shape.cpp - the block graph of a cfg-level function, read from its
// region control lists (see ssa_build.h).
//
// Why the region lists and not cfg.blocks[].successors: phi input i belongs
// to the region's control input i, so the lists are what renaming needs, and
// a graph built from one source is consistent with itself even on input that
// skipped the verifier. The output keeps the input's successor lists.
//
// Invariants needed: the reader's structural rules (ids in range, a node
// placed at most once). Checked here, because a violation would make the
// later passes index out of range or leave a dangling use: every region
// control input is the last node of a block and is a terminator; the entry
// block has no predecessors; every block is reachable from the entry; every
// node is a block node or placed in a block. The verifier (C) checks the same
// and more; these checks only matter under --no-verify.
#include <string>

#include "ir/error.h"
#include "ssa_build.h"
#include "encoding/text_format.h"

namespace pl::ssa {

namespace {

[[noreturn]] void fail(const Function& fn, NodeId id, const std::string& message) {
  throw FormatError(Where::in(fn.name, node_name(id)), message, print_node_line(fn, id));
}

std::vector<uint32_t> map_nodes_to_blocks(const Function& fn) {
  std::vector<uint32_t> block_of(fn.nodes.size(), kNone);
  const std::vector<Block>& blocks = fn.cfg->blocks;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    block_of[blocks[b].node] = b;
    for (NodeId id : blocks[b].nodes) block_of[id] = b;
  }
  for (NodeId id = 0; id < fn.nodes.size(); ++id)
    if (block_of[id] == kNone) fail(fn, id, "node is not placed in any block");
  return block_of;
}

// The block whose terminator `c` is; fails at `region` otherwise.
uint32_t block_ending_with(const Function& fn, const std::vector<uint32_t>& block_of, NodeId region, NodeId c) {
  uint32_t p = block_of[c];
  const std::vector<NodeId>& nodes = fn.cfg->blocks[p].nodes;
  bool terminator = fn.nodes[c].op < kNumOps && op_info(fn.nodes[c].op).has(TERMINATOR);
  if (nodes.empty() || nodes.back() != c || !terminator)
    fail(fn, region, "control input " + node_name(c) + " is not the terminator of a block");
  return p;
}

void check_reachable(const Function& fn, const BlockGraph& graph) {
  std::vector<char> seen(graph.succs.size(), 0);
  std::vector<uint32_t> stack{0};
  seen[0] = 1;
  while (!stack.empty()) {
    uint32_t b = stack.back();
    stack.pop_back();
    for (uint32_t s : graph.succs[b])
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back(s);
      }
  }
  for (uint32_t b = 0; b < seen.size(); ++b)
    if (!seen[b])
      throw FormatError(Where::in(fn.name, block_name(b)), "block is not reachable from the entry block");
}

}  // namespace

CfgShape read_cfg_shape(const Function& fn) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  if (blocks.empty()) throw FormatError(Where::in(fn.name, "cfg"), "the cfg section has no blocks");
  CfgShape shape;
  shape.block_of = map_nodes_to_blocks(fn);
  const size_t count = blocks.size();
  shape.graph.succs.resize(count);
  shape.graph.preds.resize(count);
  shape.out_edges.resize(count);
  if (!fn.nodes[blocks[0].node].control.empty())
    fail(fn, blocks[0].node, "the entry block has predecessors");
  for (uint32_t s = 1; s < count; ++s) {
    NodeId region = blocks[s].node;
    const ControlList& controls = fn.nodes[region].control;
    for (uint32_t i = 0; i < controls.size(); ++i) {
      uint32_t p = block_ending_with(fn, shape.block_of, region, controls[i]);
      shape.graph.preds[s].push_back(p);
      shape.graph.succs[p].push_back(s);
      shape.out_edges[p].emplace_back(s, i);
    }
  }
  check_reachable(fn, shape.graph);
  return shape;
}

}  // namespace pl::ssa
