// invert_branches.cpp - branch inversion: each conditional jump is written
// so that its likely successor costs the least.
//
// The code generator (codegen-x64, emit_function.h) lays blocks out in cfg
// order and emits a block ending in `x64:jcc cc` with successors (true T,
// false F) as one jcc when F is next, as the negated jcc when T is next,
// and otherwise as `jcc T` followed by `jmp F`. So:
//  - when T is the next block and F is not, the jump is inverted (the
//    negated condition, successors swapped): the canonical form, in which
//    the false successor is the fall-through one, the same code either way;
//  - when neither is next, the path that executes the conditional jump
//    alone (taken) is T's, while F's pays a not-taken jcc and a jmp; the
//    successors are swapped (condition negated) when F is likely and T is
//    not. Heuristics after Ball and Larus, "Branch Prediction for Free"
//    (PLDI 1993): a loop back edge (F dominates this block) is likely
//    taken; a successor that only returns (its block ends in x64:ret) is
//    unlikely (the "return" heuristic). A branch probability (FORMAT.md
//    section 7, "Branch probabilities": __builtin_expect and gcc's
//    noreturn and cold predictions, through every stage) decides before
//    the heuristics: the likelier successor takes the jump.
// An inverted jcc's probability becomes 2^31 - p (it is the probability
// of successor 0, which is now the other one).
// Son2cfg's block order already puts the likely successor next (loops
// rotated, exits jumping); this pass keeps the rule true after
// thread-jumps, remove-empty-blocks and merge-blocks change the layout.
// A jcc whose two successors are equal is left alone.
// Invariants needed and kept: the cfg-x64 contract; only a condition code
// literal and the order of one block's successors change (region control
// lists name the jcc once per edge, whichever successor it is).
// Cost: O(blocks * dominator-tree depth).
#include <utility>

#include "cfg_edit.h"
#include "ir/probability.h"
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

namespace {

// Whether block a dominates block b, from the dominance section.
bool dominates(const CfgEdit& g, const Function& fn, uint32_t a, uint32_t b) {
  for (uint32_t x = b;;) {
    if (x == a) return true;
    const std::optional<NodeId>& parent = fn.dominance->blocks[x].parent;
    if (!parent) return false;
    x = g.block_index(*parent);
  }
}

}  // namespace

size_t invert_branches(Function& fn, const ModuleHeader&, FunctionCache&) {
  CfgEdit g(fn);
  size_t changes = 0;
  for (uint32_t b = 0; b < g.num_blocks(); ++b) {
    NodeId jcc = g.terminator(b);
    if (g.op(jcc) != Op::X64Jcc || !g.can_redirect(b)) continue;
    std::optional<x64::Cond> cc = cond_at(g.node(jcc), 0);
    if (!cc) continue;
    uint32_t t = g.succ(b, 0), f = g.succ(b, 1), next = b + 1;
    bool invert = false;
    if (t == next || f == next) {
      invert = t == next;
    } else {
      auto likely = [&](uint32_t s) { return dominates(g, fn, s, b); };
      auto unlikely = [&](uint32_t s) { return g.op(g.terminator(s)) == Op::X64Ret; };
      bool f_better = (likely(f) && !likely(t)) || (!likely(t) && !likely(f) && unlikely(t) && !unlikely(f));
      std::optional<uint32_t> p = branch_probability(g.node(jcc));
      if (p && *p != kProbOne / 2) f_better = *p < kProbOne / 2;
      invert = f_better;
    }
    if (!invert) continue;
    set_cond(g.node(jcc), 0, x64::negate(*cc));
    invert_branch_probability(g.node(jcc));
    std::swap(g.block(b).successors[0], g.block(b).successors[1]);
    ++changes;
  }
  return changes;
}

}  // namespace pl::cfgopt
