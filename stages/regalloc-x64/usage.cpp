// usage.cpp - seed 001, "Usage Table Calculation": for each block, the
// sorted positions at which each value is used (a node's position is its
// index in the block's node list), and the values each block defines. Uses
// by a phi are not here: a phi reads its input at the end of the
// predecessor, which block liveness counts as a use at the edge (the seed's
// "output ports"). Together with liveness this answers the seed's "distance
// until next use" (next_use below).
//
// Needs: a cfg-x64 function and its value nodes (unit.cpp).
#include <algorithm>

#include "regalloc.h"

namespace pl::ra {

Usage compute_usage(const Function& fn, const std::vector<uint8_t>& is_value) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  Usage u;
  u.uses.resize(blocks.size());
  u.defs.resize(blocks.size());
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    const std::vector<NodeId>& list = blocks[b].nodes;
    for (uint32_t i = 0; i < list.size(); ++i) {
      const Node& nd = fn.nodes[list[i]];
      if (is_value[list[i]]) u.defs[b].push_back(list[i]);
      if (nd.op == Phi) continue;
      for (NodeId in : nd.inputs) {
        if (!is_value[in]) continue;
        std::vector<uint32_t>& pos = u.uses[b][in];
        if (pos.empty() || pos.back() != i) pos.push_back(i);
      }
    }
  }
  return u;
}

uint32_t next_use(const Function& fn, const Usage& u, const Liveness& l, uint32_t b, NodeId v, uint32_t pos) {
  auto it = u.uses[b].find(v);
  if (it != u.uses[b].end()) {
    auto p = std::lower_bound(it->second.begin(), it->second.end(), pos);
    if (p != it->second.end()) return *p - pos;
  }
  const uint32_t* out = l.live_out[b].find(v);
  if (!out) return kFar;
  const uint32_t len = static_cast<uint32_t>(fn.cfg->blocks[b].nodes.size());
  uint64_t d = uint64_t{len > pos ? len - pos : 0} + *out;
  return d >= kFar ? kFar - 1 : static_cast<uint32_t>(d);
}

}  // namespace pl::ra
