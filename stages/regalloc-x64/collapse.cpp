// collapse.cpp - seed 001, "Block Collapsing", for our graph: the seed
// glues blocks into one instruction list for the code generator; here the
// code generator linearizes (issue 8 section 3), so this step undoes what
// the allocation no longer needs and leaves a clean ra-x64 function:
//  - phis that merge one node (every input is the same node, or the phi
//    itself) are replaced by that node: the assignment makes a phi for
//    every value live into a merge, and most end up merging one node, in
//    one place (the phi's place is its inputs' place, so reads see the same
//    register or slot);
//  - safe blocks (critical_edges.cpp) that got no move hold only their
//    jump: the edge goes straight to the merge again;
//  - a safe block that kept moves goes right before its merge where that
//    costs the merge's other way in nothing (or a call's arm a jmp), so it
//    falls through instead of jumping back from the function's end
//    (place_safe_blocks);
//  - constants nobody reads (each use was made anew) are dropped;
//  - nodes no block holds (folded phis) are dropped and the rest numbered
//    canonically: blocks in order, each block's node then its nodes;
//  - the dominance section is recomputed (dominance.h).
//
// Needs: an assigned function. Keeps: the ra-x64 contract.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

#include "regalloc.h"

namespace pl::ra {

namespace {

void remove_trivial_phis(Function& fn) {
  std::vector<NodeId> replace(fn.nodes.size());
  for (NodeId id = 0; id < replace.size(); ++id) replace[id] = id;
  auto resolve = [&](NodeId x) {
    for (size_t steps = 0; replace[x] != x && steps < replace.size(); ++steps) x = replace[x];
    return x;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Block& b : fn.cfg->blocks)
      for (NodeId id : b.nodes) {
        const Node& nd = fn.nodes[id];
        if (nd.op != Phi) break;
        if (replace[id] != id) continue;
        NodeId same = kNone;
        bool trivial = true;
        for (NodeId in : nd.inputs) {
          NodeId r = resolve(in);
          if (r == id) continue;
          if (same == kNone) same = r;
          if (r != same) trivial = false;
        }
        if (trivial && same != kNone && fn.nodes[same].place == nd.place) {
          replace[id] = same;
          changed = true;
        }
      }
  }
  for (Node& nd : fn.nodes)
    for (NodeId& in : nd.inputs) in = resolve(in);
  for (Block& b : fn.cfg->blocks) {
    std::vector<NodeId> kept;
    for (NodeId id : b.nodes)
      if (replace[id] == id) kept.push_back(id);
    b.nodes = std::move(kept);
  }
}

void remove_empty_safe_blocks(Function& fn, size_t first_safe) {
  Cfg& cfg = *fn.cfg;
  std::vector<uint8_t> gone(cfg.blocks.size(), 0);
  for (size_t b = first_safe; b < cfg.blocks.size(); ++b) {
    Block& safe = cfg.blocks[b];
    if (safe.nodes.size() != 1 || fn.nodes[safe.nodes[0]].op != Jump) continue;
    NodeId jump = safe.nodes[0], target = safe.successors[0];
    NodeId branch = fn.nodes[safe.node].control[0];
    for (NodeId& c : fn.nodes[target].control)
      if (c == jump) c = branch;
    for (Block& pred : cfg.blocks)
      if (!pred.nodes.empty() && pred.nodes.back() == branch)
        for (NodeId& s : pred.successors)
          if (s == safe.node) s = target;
    gone[b] = 1;
  }
  std::vector<Block> kept;
  for (size_t b = 0; b < cfg.blocks.size(); ++b)
    if (!gone[b]) kept.push_back(std::move(cfg.blocks[b]));
  cfg.blocks = std::move(kept);
}

// Safe blocks that kept moves sit at the end of the function, so the edge
// through one takes two jumps: the branch to it and its jump back to the
// merge. The safe block goes right before its merge instead, and falls
// through into it, where that costs nothing on the other way into the
// merge: when the block before the merge does not fall through into it
// anyway, or makes a call (the arm with a call is the rarer one, as
// assignment.cpp's call_free_arms_first assumes; it pays a `jmp`). One
// safe block per merge; the others stay at the end. (Placing a loop's back
// edge the same way, before the header, made a tree-walking interpreter's
// dispatch loop slower: the block before a merge that comes earlier is not
// always the loop's preheader.) Measured on scripts/kernels/prog_*: 1.3%
// fewer instructions on prog_shapes, 0.6% on prog_listsort, 1.1% on
// prog_nqueens, no program more.
void place_safe_blocks(Function& fn, size_t first_safe) {
  std::vector<Block>& blocks = fn.cfg->blocks;
  if (first_safe >= blocks.size()) return;
  std::unordered_map<NodeId, size_t> index;  // block node -> its index
  for (size_t b = 0; b < blocks.size(); ++b) index.emplace(blocks[b].node, b);
  auto calls = [&](const Block& b) {
    return std::any_of(b.nodes.begin(), b.nodes.end(), [&](NodeId n) { return op_info(fn.nodes[n].op).has(CALL); });
  };
  std::vector<size_t> before(first_safe, SIZE_MAX);  // merge -> the safe block placed before it
  for (size_t s = first_safe; s < blocks.size(); ++s) {
    const Block& safe = blocks[s];
    if (safe.successors.size() != 1 || fn.nodes[safe.node].control.size() != 1) continue;
    auto merge = index.find(safe.successors[0]);
    if (merge == index.end() || merge->second >= first_safe || merge->second == 0) continue;
    const size_t m = merge->second;
    if (before[m] != SIZE_MAX) continue;
    const Block& prev = blocks[m - 1];
    bool prev_falls = std::find(prev.successors.begin(), prev.successors.end(), blocks[m].node) != prev.successors.end();
    if (calls(prev) || !prev_falls) before[m] = s;
  }
  std::vector<uint8_t> placed(blocks.size(), 0);
  std::vector<Block> order;
  order.reserve(blocks.size());
  for (size_t b = 0; b < first_safe; ++b) {
    if (before[b] != SIZE_MAX) {
      order.push_back(std::move(blocks[before[b]]));
      placed[before[b]] = 1;
    }
    order.push_back(std::move(blocks[b]));
  }
  for (size_t s = first_safe; s < blocks.size(); ++s)
    if (!placed[s]) order.push_back(std::move(blocks[s]));
  blocks = std::move(order);
}

// A constant the assignment made anew at every use (rematerialization:
// its first register was taken before any read) is left unread where it
// was defined; its instruction would be a dead write. Drop it.
void remove_unread_constants(Function& fn) {
  std::vector<uint32_t> reads(fn.nodes.size(), 0);
  for (const Block& b : fn.cfg->blocks)
    for (NodeId id : b.nodes)
      for (NodeId in : fn.nodes[id].inputs) ++reads[in];
  auto unread_constant = [&](NodeId id) {
    return x64::rematerializable(fn.nodes[id]) && reads[id] == 0;
  };
  for (Block& b : fn.cfg->blocks) std::erase_if(b.nodes, unread_constant);
}

// Keeps the nodes blocks hold, numbered block by block.
void compact(Function& fn) {
  std::vector<NodeId> order;
  for (const Block& b : fn.cfg->blocks) {
    order.push_back(b.node);
    order.insert(order.end(), b.nodes.begin(), b.nodes.end());
  }
  std::vector<NodeId> map(fn.nodes.size(), kNone);
  for (NodeId i = 0; i < order.size(); ++i) map[order[i]] = i;
  auto to = [&](NodeId x) {
    if (map[x] == kNone) throw std::logic_error("regalloc-x64: a kept node refers to a dropped one");
    return map[x];
  };
  std::vector<Node> nodes;
  nodes.reserve(order.size());
  for (NodeId old : order) {
    Node nd = std::move(fn.nodes[old]);
    for (NodeId& c : nd.control) c = to(c);
    for (NodeId& in : nd.inputs) in = to(in);
    nodes.push_back(std::move(nd));
  }
  fn.nodes = std::move(nodes);
  remap_debug_slots(fn.debug, map, kNone);
  for (Block& b : fn.cfg->blocks) {
    b.node = to(b.node);
    for (NodeId& s : b.successors) s = to(s);
    for (NodeId& id : b.nodes) id = to(id);
  }
}

}  // namespace

void collapse_blocks(Function& fn, size_t first_safe) {
  remove_trivial_phis(fn);
  remove_empty_safe_blocks(fn, first_safe);
  place_safe_blocks(fn, first_safe);
  remove_unread_constants(fn);
  compact(fn);
  fn.dominance = dominance_section(fn, compute_dom_tree(block_graph(fn)));
}

}  // namespace pl::ra
