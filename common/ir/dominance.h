// dominance.h - dominator tree and dominance frontiers of a function's cfg.
//
// Algorithm: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm"
// (2001): iterate idom[b] = intersect(processed preds) over reverse postorder
// until nothing changes; frontiers by walking up from each predecessor of a
// merge to the merge's idom (the same paper's "runner" loop). Near-linear in
// practice; O(n^2) worst case on pathological graphs.
//
// The stages (cfg2ssa, son2cfg, the generator) use this file. The verifier
// deliberately recomputes dominators with a different algorithm
// (Lengauer-Tarjan, in verify.cpp), so that a dominance section a stage
// writes is checked independently, in the spirit of regalloc2's checker.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace pl {

struct BlockGraph {
  // Block indexes (positions in cfg.blocks), not node ids.
  std::vector<std::vector<uint32_t>> succs;
  std::vector<std::vector<uint32_t>> preds;  // one entry per edge, in edge order
};

struct DomTree {
  static constexpr uint32_t kNone = ~0u;
  std::vector<uint32_t> idom;       // kNone for the entry and unreachable blocks
  std::vector<uint32_t> rpo;        // reachable blocks in reverse postorder
  std::vector<uint32_t> rpo_index;  // kNone when unreachable
  std::vector<std::vector<uint32_t>> frontier;  // sorted block indexes
  bool reachable(uint32_t b) const { return rpo_index[b] != kNone; }
  // Does block a dominate block b? (both reachable)
  bool dominates(uint32_t a, uint32_t b) const;
};

// With frontiers false, DomTree::frontier is left empty (callers that only
// ask dominance questions save the walk and its allocations).
DomTree compute_dom_tree(const BlockGraph& g, bool frontiers = true);

// The dominance section for fn (parents and frontiers as block node ids,
// frontier in block order).
Dominance dominance_section(const Function& fn, const DomTree& tree);

}  // namespace pl
