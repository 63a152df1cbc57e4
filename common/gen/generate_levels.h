// generate_levels.h - the steps the random module generators share
// (generate.cpp for valid modules, generate_runnable.cpp for runnable
// programs). Both build a function at the ssa level over a BlockGraph, with
// its cfg section, then turn it into the level asked for:
//   link_blocks      the cfg's successor lists and each region's control
//                    inputs (the predecessors' terminators, in edge order);
//   demote_phi       cfg level: a phi becomes `ssa:load SLOT`, and each
//                    distinct predecessor stores its input into SLOT just
//                    before its terminator (a predecessor reaching the block
//                    twice stores the input of its first edge, so the
//                    generator must pass equal values on both);
//   to_son_control   son level: ssa:phi/ssa:undefined renamed, each edge out
//                    of an `if` or `x64:jcc` becomes a `proj`, and the cfg
//                    and dominance sections go.
// `add(op, literals, inputs)` makes a floating node and returns its id: the
// generators give nodes random source locations, so the caller's random
// stream must see the same calls in the same order as before.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ir/dominance.h"
#include "ir/ir.h"

namespace pl::gen {

inline void link_blocks(Function& fn, const BlockGraph& graph) {
  Cfg& cfg = *fn.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    Block& block = cfg.blocks[b];
    for (uint32_t s : graph.succs[b]) block.successors.push_back(cfg.blocks[s].node);
    for (uint32_t p : graph.preds[b]) fn.nodes[block.node].control.push_back(cfg.blocks[p].nodes.back());
  }
}

template <class Add>
void demote_phi(Function& fn, const BlockGraph& graph, uint32_t block, NodeId phi, int64_t slot, Add&& add) {
  InputList incoming = fn.nodes[phi].inputs;
  Node& load = fn.nodes[phi];
  load.op = SsaLoad;
  load.control.clear();
  load.inputs.clear();
  load.literals = {Literal::integer(slot)};
  std::vector<uint32_t> stored;
  for (size_t i = 0; i < graph.preds[block].size(); ++i) {
    uint32_t p = graph.preds[block][i];
    if (std::find(stored.begin(), stored.end(), p) != stored.end()) continue;
    stored.push_back(p);
    NodeId store = add(SsaStore, LiteralList{Literal::integer(slot)}, InputList{incoming[i]});
    std::vector<NodeId>& nodes = fn.cfg->blocks[p].nodes;
    nodes.insert(nodes.end() - 1, store);
  }
}

inline void rename_ssa_phis(Function& fn) {
  for (Node& n : fn.nodes) {
    if (n.op == SsaPhi) n.op = Phi;
    if (n.op == SsaUndef) n.op = Undef;
  }
}

template <class Add>
void to_son_control(Function& fn, const BlockGraph& graph, Add&& add) {
  rename_ssa_phis(fn);
  const Cfg& cfg = *fn.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    NodeId term = cfg.blocks[b].nodes.back();
    if (fn.nodes[term].op != If && fn.nodes[term].op != X64Jcc) continue;
    for (uint32_t k = 0; k < 2; ++k) {
      NodeId proj = add(Proj, LiteralList{Literal::integer(k)}, InputList{term});
      Node& region = fn.nodes[cfg.blocks[graph.succs[b][k]].node];
      *std::find(region.control.begin(), region.control.end(), term) = proj;
    }
  }
  fn.cfg.reset();
  fn.dominance.reset();
}

}  // namespace pl::gen
