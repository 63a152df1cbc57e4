// stack_map.cpp - seed 001, "Stack Interval Calculation" and "Stack Map
// Calculation": slots whose contents are never live at the same time share
// a number, so the frame holds no more slots than are live at once.
//
// The assignment gives each spilled value (and each phi in a slot) a slot of
// its own. Here the nodes held in slots are the values of a liveness
// analysis (usage.cpp, liveness.cpp on the assigned graph: a spill node is
// defined where it stores, used by its reloads and by phis at the end of a
// predecessor); the seed's start and end intervals become the live ranges
// of those nodes. Two slots conflict when a node of one is defined while a
// node of the other is live (the phis at the top of a block are defined
// together). Slots then take, in order, the lowest number no conflicting
// slot has (the seed's "next free stack location" as intervals start).
// Offsets and the frame size are the code generator's (all slots are 8
// bytes, so they need no padding).
//
// Needs: an assigned function with a cfg. Keeps: the places, renumbered.
#include <algorithm>

#include "regalloc.h"

namespace pl::ra {

void share_slots(Function& fn) {
  const size_t n = fn.nodes.size();
  std::vector<uint8_t> in_slot(n, 0);
  unsigned slots = 0;
  for (NodeId id = 0; id < n; ++id)
    if (fn.nodes[id].place.is_slot()) {
      in_slot[id] = 1;
      slots = std::max(slots, fn.nodes[id].place.slot() + 1);
    }
  if (slots < 2) return;
  // A 16-byte vector in a slot holds two (sN, sN+1: x64.h v128_values),
  // which this colouring of one slot per node does not keep together: such
  // a function keeps the assignment's slots unshared (a departure; the
  // frame is larger only in a function that spills a vector).
  {
    const std::vector<uint8_t> vec = x64::v128_values(fn);
    for (NodeId id = 0; id < n; ++id)
      if (in_slot[id] && vec[id]) return;
  }
  const BlockGraph g = block_graph(fn);
  const Usage usage = compute_usage(fn, in_slot);
  const Liveness live = compute_liveness(fn, g, usage, in_slot);
  // Conflict pairs, both ways; sorted and made unique below.
  std::vector<std::vector<unsigned>> conflicts(slots);
  auto conflict = [&](NodeId a, NodeId b) {
    unsigned x = fn.nodes[a].place.slot(), y = fn.nodes[b].place.slot();
    if (x == y) return;
    conflicts[x].push_back(y);
    conflicts[y].push_back(x);
  };
  const std::vector<Block>& blocks = fn.cfg->blocks;
  // The live slot nodes during the backward walk of a block: `set` holds
  // exactly them (a node leaves it where it is defined), `where` its index.
  constexpr uint32_t kOut = ~uint32_t{0};
  std::vector<uint32_t> where(n, kOut);
  std::vector<NodeId> set, phis;
  auto add = [&](NodeId v) {
    if (where[v] != kOut) return;
    where[v] = static_cast<uint32_t>(set.size());
    set.push_back(v);
  };
  auto remove = [&](NodeId v) {
    if (where[v] == kOut) return;
    NodeId last = set.back();
    set[where[v]] = last;
    where[last] = where[v];
    set.pop_back();
    where[v] = kOut;
  };
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    set.clear();
    phis.clear();
    for (const auto& [v, d] : live.live_out[b]) add(v);
    for (size_t i = blocks[b].nodes.size(); i-- > 0;) {
      NodeId id = blocks[b].nodes[i];
      const Node& nd = fn.nodes[id];
      if (nd.op == Phi) {
        if (in_slot[id]) phis.push_back(id);
        continue;
      }
      if (in_slot[id]) {
        for (NodeId v : set)
          if (v != id) conflict(id, v);
        remove(id);
      }
      for (NodeId in : nd.inputs)
        if (in_slot[in]) add(in);
    }
    for (NodeId p : phis)
      for (NodeId v : set)
        if (v != p) conflict(p, v);
    for (size_t i = 0; i < phis.size(); ++i)
      for (size_t j = i + 1; j < phis.size(); ++j) conflict(phis[i], phis[j]);
    for (NodeId v : set) where[v] = kOut;
  }
  for (std::vector<unsigned>& c : conflicts) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  std::vector<unsigned> color(slots, 0);
  std::vector<unsigned> taken_by(slots, ~0u);  // colour -> the last slot its conflict took it for
  for (unsigned s = 0; s < slots; ++s) {
    for (unsigned o : conflicts[s])
      if (o < s) taken_by[color[o]] = s;
    unsigned c = 0;
    while (taken_by[c] == s) ++c;
    color[s] = c;
  }
  for (Node& nd : fn.nodes)
    if (nd.place.is_slot()) nd.place = Place::slot(color[nd.place.slot()]);
}

}  // namespace pl::ra
