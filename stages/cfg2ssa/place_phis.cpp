// place_phis.cpp - pruned SSA phi placement (see ssa_build.h).
//
// Algorithm: Cytron, Ferrante, Rosen, Wegman, Zadeck, "Efficiently Computing
// Static Single Assignment Form and the Control Dependence Graph" (1991):
// a slot needs a phi at the iterated dominance frontier of the blocks that
// store it; pruned as in Choi, Cytron, Ferrante, "Automatic Construction of
// Sparse Data Flow Evaluation Graphs" (1991): only where the slot is live on
// entry. Dominance frontiers come from common/ir/dominance.h
// (Cooper-Harvey-Kennedy).
//
// One slot at a time:
//  1. Liveness by a backward worklist from the blocks with an upward-exposed
//     load: a predecessor that does not store the slot becomes live-in too.
//     Work: the live-in blocks of the slot and their predecessor edges.
//  2. The iterated frontier by a worklist seeded with the storing blocks;
//     a frontier block gets a phi only if the slot is live-in there, and the
//     walk does not go on through a block where it is not (LLVM's
//     IDFCalculator with live-in blocks does the same: a phi that would sit
//     there is dead, and every block beyond it that needs a phi is reached
//     through a live phi or a store instead).
// A slot none of whose storing blocks has a frontier needs no phi, and its
// liveness is skipped. Per-block stamps (the slot being processed) replace
// per-slot sets, so no array is ever cleared: total work is the sum over
// slots of the live-in blocks, the edges into them and the frontiers walked;
// no slot costs more than O(blocks + edges + frontier sizes). The live-in
// sets are the one part that can grow as slots x blocks (many locals live
// across a long function), the size of the liveness relation itself.
//
// Liveness here counts every ssa:load as a use, even one whose value ends up
// unused or only stored into a slot nobody reads; such a phi is dead after
// renaming, and finish_ssa removes it (the output has no dead phis).
#include "ssa_build.h"

namespace pl::ssa {

namespace {

// Per-block stamps, each holding `slot + 1` when true for the current slot.
struct Stamps {
  explicit Stamps(size_t blocks) : live(blocks, 0), stores(blocks, 0), queued(blocks, 0), phi(blocks, 0) {}
  std::vector<uint32_t> live, stores, queued, phi;
};

void mark_live_in(uint32_t stamp, const std::vector<uint32_t>& use_blocks, const BlockGraph& graph,
                  Stamps& st, std::vector<uint32_t>& work) {
  work.clear();
  for (uint32_t b : use_blocks) {
    st.live[b] = stamp;
    work.push_back(b);
  }
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t p : graph.preds[b]) {
      if (st.live[p] == stamp || st.stores[p] == stamp) continue;
      st.live[p] = stamp;
      work.push_back(p);
    }
  }
}

void place_slot_phis(uint32_t slot, uint32_t stamp, const std::vector<uint32_t>& def_blocks, const DomTree& tree,
                     Stamps& st, std::vector<uint32_t>& work, std::vector<std::vector<uint32_t>>& phi_slots) {
  work.clear();
  for (uint32_t b : def_blocks) {
    st.queued[b] = stamp;
    work.push_back(b);
  }
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t f : tree.frontier[b]) {
      if (st.live[f] != stamp || st.phi[f] == stamp) continue;
      st.phi[f] = stamp;
      phi_slots[f].push_back(slot);
      if (st.queued[f] != stamp) {
        st.queued[f] = stamp;
        work.push_back(f);
      }
    }
  }
}

// Can a store in these blocks need a phi anywhere? Not if no storing block
// has a frontier (straight-line code, stores in the entry block): then the
// slot's liveness is not computed at all.
bool reaches_a_merge(const std::vector<uint32_t>& def_blocks, const DomTree& tree) {
  for (uint32_t b : def_blocks)
    if (!tree.frontier[b].empty()) return true;
  return false;
}

}  // namespace

std::vector<std::vector<uint32_t>> place_phis(const Slots& slots, const BlockGraph& graph, const DomTree& tree) {
  const size_t blocks = graph.succs.size();
  std::vector<std::vector<uint32_t>> phi_slots(blocks);
  Stamps st(blocks);
  std::vector<uint32_t> work;
  for (uint32_t v = 0; v < slots.numbers.size(); ++v) {
    if (slots.uses[v].empty() || !reaches_a_merge(slots.defs[v], tree)) continue;  // no phi possible
    uint32_t stamp = v + 1;
    for (uint32_t b : slots.defs[v]) st.stores[b] = stamp;
    mark_live_in(stamp, slots.uses[v], graph, st, work);
    place_slot_phis(v, stamp, slots.defs[v], tree, st, work, phi_slots);
  }
  return phi_slots;
}

}  // namespace pl::ssa
