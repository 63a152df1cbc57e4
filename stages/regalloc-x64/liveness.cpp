// liveness.cpp - seed 001, "Block Liveness Analysis": the values live into
// and out of each block, each with the distance (in instructions) to its
// next use, by the seed's three phases: summaries per block (defined
// values, first uses), propagation to a fixpoint (live-in of a block is
// live-out of its predecessors; live-out not defined in the block is
// live-in at the block's length plus the distance), the result tables.
// Following the seed, a change is recorded only when a distance shrinks, so
// the iteration ends. A phi's input is live out of the predecessor it comes
// from, at distance 0; the phi itself is defined at the top of its block.
//
// Needs: usage lists (usage.cpp), the block graph in region-control order.
#include <algorithm>

#include "regalloc.h"

namespace pl::ra {

namespace {

// Lowers `map[v]` to `d`; true if it changed.
bool lower(std::unordered_map<NodeId, uint32_t>& map, NodeId v, uint32_t d) {
  auto [it, fresh] = map.try_emplace(v, d);  // no node allocated when v is there
  if (fresh) return true;
  if (d >= it->second) return false;
  it->second = d;
  return true;
}

}  // namespace

Liveness compute_liveness(const Function& fn, const BlockGraph& g, const Usage& usage,
                          const std::vector<uint8_t>& is_value) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  const size_t nb = blocks.size();
  Liveness l;
  l.live_in.resize(nb);
  l.live_out.resize(nb);
  // Summaries: defined values, first use of values not defined here.
  std::vector<std::vector<uint8_t>> defined(nb);
  std::vector<uint8_t> mark(fn.nodes.size(), 0);
  for (uint32_t b = 0; b < nb; ++b) {
    for (NodeId d : usage.defs[b]) mark[d] = 1;
    for (const auto& [v, pos] : usage.uses[b])
      if (!mark[v]) l.live_in[b][v] = pos.front();
    for (NodeId d : usage.defs[b]) mark[d] = 0;
  }
  // Phi inputs: live out of their predecessor at distance 0.
  for (uint32_t b = 0; b < nb; ++b)
    for (NodeId id : blocks[b].nodes) {
      const Node& nd = fn.nodes[id];
      if (nd.op != Phi) break;
      if (!is_value[id]) continue;
      for (size_t k = 0; k < nd.inputs.size() && k < g.preds[b].size(); ++k)
        if (is_value[nd.inputs[k]]) lower(l.live_out[g.preds[b][k]], nd.inputs[k], 0);
    }
  // Propagation, backwards over the blocks until nothing shrinks.
  std::vector<uint8_t> in_block(fn.nodes.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = static_cast<uint32_t>(nb); b-- > 0;) {
      for (uint32_t s : g.succs[b])
        for (const auto& [v, d] : l.live_in[s]) changed |= lower(l.live_out[b], v, d);
      for (NodeId d : usage.defs[b]) in_block[d] = 1;
      const uint32_t len = static_cast<uint32_t>(blocks[b].nodes.size());
      for (const auto& [v, d] : l.live_out[b])
        if (!in_block[v]) changed |= lower(l.live_in[b], v, std::min<uint64_t>(uint64_t{len} + d, kFar - 1));
      for (NodeId d : usage.defs[b]) in_block[d] = 0;
    }
  }
  return l;
}

}  // namespace pl::ra
