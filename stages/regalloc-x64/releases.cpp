// releases.cpp - seed 001, "Release Table Calculation": for each block and
// position, the values released there: read for the last time by that
// instruction and not live out of the block. (The seed marks a value
// released where it stops being "loaded" walking backwards; with SSA and
// the usage lists that is the last use in the block of a value that is not
// live out.) (A value defined and never used is freed by the
// assignment right after its definition.) Each list is sorted, so the
// output does not depend on hash order.
//
// Needs: usage lists and block liveness.
#include <algorithm>

#include "regalloc.h"

namespace pl::ra {

Releases compute_releases(const Function& fn, const Usage& u, const Liveness& l) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  Releases r(blocks.size());
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    r[b].resize(blocks[b].nodes.size());
    for (const auto& [v, pos] : u.uses[b])
      if (!l.live_out[b].count(v)) r[b][pos.back()].push_back(v);
    for (auto& list : r[b]) std::sort(list.begin(), list.end());
  }
  return r;
}

}  // namespace pl::ra
