// remove_empty_blocks.cpp - blocks that hold nothing but a jump go: every
// edge into such a block B goes straight to B's successor S.
//
// Algorithm. For each block B other than block 0 whose only node is an
// unconditional `jump` to a block S other than itself, each predecessor
// edge P -> B becomes P -> S (CfgEdit::redirect); each phi of S gets, for the
// new edge, the value it gets along B -> S. When B has no predecessor left,
// CfgEdit::finish() removes it. Blocks are visited in layout order, so a
// chain of empty blocks collapses in one application. O(edges * phis).
//
// Conditions (what keeps the cfg-x64 contract):
//  - B defines nothing, so a value flowing along B -> S is defined in a
//    block strictly dominating B, hence dominating every predecessor P: it
//    may flow along P -> S;
//  - if P's other successor is already S, P would reach S twice; allowed
//    only when every phi of S gets the same value on both edges (which of
//    the two region entries is which edge is not recorded: CfgEdit);
//  - P's two successors must be distinct to be redirected (CfgEdit).
// son2cfg adds no empty blocks; they appear when thread-jumps and
// reuse-flags bypass a block's work, or when sonopt left an empty arm.
// Invariants needed and kept: the cfg-x64 contract.
// Paper: none; the CFG cleanup of every compiler ("Engineering a Compiler",
// Cooper and Torczon, section 10.2: removing empty blocks).
#include "cfg_edit.h"
#include "passes.h"

namespace pl::cfgopt {

namespace {

bool forwarding(const CfgEdit& g, uint32_t b) {
  return b != 0 && g.block_alive(b) && g.only_terminator(b) && g.op(g.terminator(b)) == Op::Jump &&
         g.succ(b, 0) != b;
}

// Redirects one edge into b; false when none can go.
bool bypass_one(CfgEdit& g, uint32_t b) {
  uint32_t s = g.succ(b, 0);
  size_t from_b = g.edge_position(b, s);
  std::vector<NodeId> values;
  for (NodeId phi : g.phis(s)) values.push_back(g.node(phi).inputs[from_b]);
  for (uint32_t p : g.preds(b)) {
    if (!g.can_redirect(p)) continue;
    size_t index = g.block(p).successors[0] == g.block(b).node ? 0 : 1;
    if (g.num_succs(p) == 2 && g.succ(p, 1 - index) == s) {
      size_t from_p = g.edge_position(p, s);
      bool same = true;
      std::vector<NodeId> phis = g.phis(s);
      for (size_t i = 0; i < phis.size(); ++i) same = same && g.node(phis[i]).inputs[from_p] == values[i];
      if (!same) continue;
    }
    g.redirect(p, index, s, values);
    return true;
  }
  return false;
}

}  // namespace

size_t remove_empty_blocks(Function& fn, const ModuleHeader&, FunctionCache&) {
  CfgEdit g(fn);
  size_t changes = 0;
  for (uint32_t b = 1; b < g.num_blocks(); ++b) {
    if (!forwarding(g, b)) continue;
    while (bypass_one(g, b)) ++changes;
  }
  if (changes > 0) g.finish();
  return changes;
}

}  // namespace pl::cfgopt
