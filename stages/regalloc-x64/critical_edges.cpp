// critical_edges.cpp - seed 001, "Critical Edge Removal" (safe block
// insertion): every edge from a block with several successors (an x64:jcc)
// into a block with several predecessors gets a block of its own, a region
// and a jump, so that the moves an edge needs (phis, values in other places)
// can be put at the end of a predecessor with one successor.
//
// Needs: a cfg-x64 function (regions list their predecessors' terminators).
// Keeps: the cfg contract; the dominance section is stale afterwards and is
// recomputed by collapse_blocks (blocks are only appended).
// Departure: the seed's first phase (forwarding empty blocks with a single
// successor) is left to son2cfg and cfgopt, which already drop them; the
// seed's third phase is this one. Block collapsing removes the safe blocks
// that got no moves.
#include "regalloc.h"

namespace pl::ra {

namespace {

NodeId add_node(Function& fn, Node node) {
  fn.nodes.push_back(std::move(node));
  return static_cast<NodeId>(fn.nodes.size() - 1);
}

}  // namespace

void split_critical_edges(Function& fn) {
  Cfg& cfg = *fn.cfg;
  const size_t original = cfg.blocks.size();
  for (uint32_t b = 0; b < original; ++b) {
    if (cfg.blocks[b].successors.size() < 2) continue;
    NodeId term = cfg.blocks[b].nodes.empty() ? cfg.blocks[b].node : cfg.blocks[b].nodes.back();
    for (size_t k = 0; k < cfg.blocks[b].successors.size(); ++k) {
      NodeId target = cfg.blocks[b].successors[k];
      Node& region = fn.nodes[target];
      if (region.control.size() < 2) continue;
      // The first control input of the target still naming `term` is this
      // edge (an if whose successors are the same block is listed twice).
      size_t slot = 0;
      while (slot < region.control.size() && region.control[slot] != term) ++slot;
      if (slot == region.control.size()) continue;
      Node safe_region;
      safe_region.op = Region;
      safe_region.control = {term};
      safe_region.loc = fn.nodes[term].loc;
      NodeId r = add_node(fn, std::move(safe_region));
      Node jump;
      jump.op = Jump;
      jump.control = {r};
      jump.loc = fn.nodes[term].loc;
      NodeId j = add_node(fn, std::move(jump));
      fn.nodes[target].control[slot] = j;
      Block safe;
      safe.node = r;
      safe.successors = {target};
      safe.nodes = {j};
      cfg.blocks[b].successors[k] = r;
      cfg.blocks.push_back(std::move(safe));
    }
  }
}

}  // namespace pl::ra
