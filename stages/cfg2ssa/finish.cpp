// finish.cpp - from the renamed graph to the ssa-level function (see
// ssa_build.h).
//
//  1. Rewire: every input of a surviving node that names a removed ssa:load
//     names the load's value instead (values are never loads, so one step).
//  2. Dead phis: a phi is live when a surviving non-phi node uses it, or a
//     live phi does (a worklist from the non-phi uses, through phi inputs).
//     Pruning by liveness leaves phis whose only reader was a load with an
//     unused value or a store nobody reads; this removes them, so no phi of
//     the output is unused by every non-phi, transitively. Entry undefineds
//     that only dead phis used go too.
//  3. Blocks: the entry undefineds (by slot) open the entry block; each
//     block lists its live phis (by slot) first, then its surviving nodes in
//     their order (the terminator stays last).
//  4. Ids: renumber_canonical (common/ir/renumber.h) numbers block by block -
//     block node, then its nodes - which puts the removed nodes last; the
//     node array is cut there. The same input gives the same ids, and the
//     printed function reads top to bottom in id order.
//  5. The dominance section from the tree (dominance_section()).
// Debug bindings follow the renumbering; one to a removed phi goes (a
// stored value is never removed), and the variables' ssa: slot numbers
// are cleared (the ssa level has no slots).
// Locations: every surviving node keeps its own; phis and entry undefineds
// have none. Linear apart from the renumbering.
#include <algorithm>

#include "ir/error.h"
#include "ir/renumber.h"
#include "ssa_build.h"
#include "encoding/text_format.h"

namespace pl::ssa {

namespace {

void rewire_uses(Function& fn, const Renaming& r) {
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    if (r.removed[id]) continue;
    for (NodeId& in : fn.nodes[id].inputs) {
      if (r.value_of[in] != kNone) in = r.value_of[in];
      if (r.removed[in])
        throw FormatError(Where::in(fn.name, node_name(id)),
                          "input " + node_name(in) + " is an ssa:store, which produces nothing",
                          print_node_line(fn, id));
    }
  }
}

bool is_phi(const Function& fn, NodeId id) { return fn.nodes[id].op == SsaPhi; }

// live[id] for the phis reachable from non-phi uses; others stay 0.
std::vector<char> find_live_phis(const Function& fn, const Renaming& r) {
  std::vector<char> live(fn.nodes.size(), 0);
  std::vector<NodeId> work;
  auto reach = [&](NodeId in) {
    if (is_phi(fn, in) && !live[in]) {
      live[in] = 1;
      work.push_back(in);
    }
  };
  for (NodeId id = 0; id < fn.nodes.size(); ++id)
    if (!r.removed[id] && !is_phi(fn, id))
      for (NodeId in : fn.nodes[id].inputs) reach(in);
  while (!work.empty()) {
    NodeId phi = work.back();
    work.pop_back();
    for (NodeId in : fn.nodes[phi].inputs) reach(in);
  }
  return live;
}

void drop_dead_phis_and_undefineds(Function& fn, Renaming& r) {
  std::vector<char> live = find_live_phis(fn, r);
  for (auto& phis : r.phis)
    for (NodeId phi : phis)
      if (!live[phi]) r.removed[phi] = 1;
  std::vector<char> used(fn.nodes.size(), 0);
  for (NodeId id = 0; id < fn.nodes.size(); ++id)
    if (!r.removed[id])
      for (NodeId in : fn.nodes[id].inputs) used[in] = 1;
  for (NodeId undef : r.entry_undefined)
    if (undef != kNone && !used[undef]) r.removed[undef] = 1;
}

void rebuild_blocks(Function& fn, const Renaming& r) {
  std::vector<Block>& blocks = fn.cfg->blocks;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    std::vector<NodeId> nodes;
    nodes.reserve(blocks[b].nodes.size() + r.phis[b].size());
    if (b == 0)
      for (NodeId undef : r.entry_undefined)
        if (undef != kNone && !r.removed[undef]) nodes.push_back(undef);
    for (NodeId phi : r.phis[b])
      if (!r.removed[phi]) nodes.push_back(phi);
    for (NodeId id : blocks[b].nodes)
      if (!r.removed[id]) nodes.push_back(id);
    blocks[b].nodes = std::move(nodes);
  }
}

size_t placed_count(const Function& fn) {
  size_t count = 0;
  for (const Block& b : fn.cfg->blocks) count += 1 + b.nodes.size();
  return count;
}

// The removed nodes were numbered last and cut off: a binding past the end
// named a removed node (a dead phi: dropped; anything else: lost).
void drop_bindings_past_end(Function& fn) {
  std::vector<NodeId> same(fn.nodes.size());
  for (NodeId id = 0; id < same.size(); ++id) same[id] = id;
  remap_debug_slots(fn.debug, same, kNoSlot);
  for (DebugVar& v : fn.debug.vars) v.ssa_slot = kDebugNone;
}

}  // namespace

void finish_ssa(Function& fn, const DomTree& tree, Renaming& renaming) {
  rewire_uses(fn, renaming);
  drop_dead_phis_and_undefineds(fn, renaming);
  rebuild_blocks(fn, renaming);
  fn.dominance.reset();
  renumber_canonical(fn);
  fn.nodes.resize(placed_count(fn));
  drop_bindings_past_end(fn);
  fn.dominance = dominance_section(fn, tree);
}

}  // namespace pl::ssa
