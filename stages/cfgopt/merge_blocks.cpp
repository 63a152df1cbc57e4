// merge_blocks.cpp - straight-line blocks become one: a block A that ends
// with a `jump` to a block B whose only predecessor is A takes B's nodes.
//
// Algorithm. For each such pair (B not block 0, B != A): B's phis have one
// input each (A's), so every use of a phi reads that input instead and the
// phi goes; A's jump goes; B's other nodes are appended to A in order, pinned
// ones now hanging off A's block node; A takes B's successors (their regions
// list B's terminator, which moved with it, so no region changes); B's
// region goes (CfgEdit::append_block). Visiting A again after a merge
// folds whole chains in one application. The phis' uses are redirected at
// the end, in one sweep over the nodes (a phi's input may be an earlier
// merged phi: followed to the value that stays): O(nodes + phi uses).
//
// Conditions: A dominates B (its only predecessor), so every value B used is
// still defined before its use, and a phi's input, defined in a block
// dominating A, dominates every use of the phi. Flags stay next to their
// user: the compare and its jcc move together. Layout: the merged block
// sits where A was; B's place in the block order disappears.
// Invariants needed and kept: the cfg-x64 contract.
// Paper: none; the classic CFG cleanup ("Engineering a Compiler", Cooper
// and Torczon, section 10.2: combining blocks).
#include <unordered_map>

#include "cfg_edit.h"
#include "passes.h"

namespace pl::cfgopt {

namespace {

// Every live node's input that is a merged phi reads what the phi read
// (through chains of merged phis) instead.
void redirect_uses(CfgEdit& g, const std::unordered_map<NodeId, NodeId>& replaced) {
  for (NodeId n = 0; n < g.function().nodes.size(); ++n) {
    if (!g.alive(n)) continue;
    for (NodeId& in : g.node(n).inputs)
      for (auto it = replaced.find(in); it != replaced.end(); it = replaced.find(in)) in = it->second;
  }
}

}  // namespace

size_t merge_blocks(Function& fn, const ModuleHeader&, FunctionCache&) {
  CfgEdit g(fn);
  size_t changes = 0;
  std::unordered_map<NodeId, NodeId> replaced;  // merged phi -> its input
  for (uint32_t a = 0; a < g.num_blocks(); ++a) {
    while (g.block_alive(a) && g.op(g.terminator(a)) == Op::Jump) {
      uint32_t b = g.succ(a, 0);
      if (b == 0 || b == a || g.node(g.block(b).node).control.size() != 1) break;
      for (NodeId phi : g.phis(b)) {
        replaced.emplace(phi, g.node(phi).inputs[0]);
        g.remove_from_block(phi);
        g.kill(phi);
      }
      NodeId jump = g.terminator(a);
      g.remove_from_block(jump);
      g.kill(jump);
      g.append_block(a, b);
      ++changes;
    }
  }
  if (!replaced.empty()) redirect_uses(g, replaced);
  if (changes > 0) g.finish();
  return changes;
}

}  // namespace pl::cfgopt
