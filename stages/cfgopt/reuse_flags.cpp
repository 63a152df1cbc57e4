// reuse_flags.cpp - removal of a compare whose flags an earlier compare
// already set: a flags user that re-tests a boolean made by x64:setcc reads
// the flags of the compare that setcc read, instead.
//
// The shape: v = x64:setcc cc0, F0 (F0 a compare of a and b), optionally
// zero-extended (x64:movzx from 8 bits), then F = a compare of v alone
// (test v, v; testi v, imm; cmpi v, imm) and a user U of F (x64:jcc,
// x64:setcc or x64:cmov, condition cc). It is what a C condition on a
// boolean variable becomes once global code motion has put the comparison
// in one block and the branch in another (`int lt = a < b; ... if (lt)`).
//
// Algorithm. The flags F gives U for v = 0 and for v = 1 are computed with
// common/x64/eval_x64.h (compare_flags, x64_cond: the functions pipe-run runs).
// If U's condition holds exactly when v = 1, U reads cc0; exactly when
// v = 0, the negation of cc0; otherwise (a constant outcome) nothing
// changes. U then reads a fresh copy of F0 placed where F was (right before
// U, as the contract wants flags); F dies, and v and F0 die too when nothing
// else reads them (CfgEdit::finish). One scan of the nodes: O(nodes).
//
// Correctness conditions. setcc writes only the low byte (the upper 56 bits
// are unspecified: x64_facts.h), so F may read more than the known bits of v
// only as `testi` with an immediate that masks them off; a movzx from 8
// bits makes the low `to` bits known (all 64 from 32 bits up). F0's inputs
// are defined before F0, which sits in v's block, which dominates F's block:
// the copy's inputs dominate it.
// The flags an arithmetic instruction left for its result are reused by
// the flags-from-arith pass (x64:flagsof); this pass reuses a compare's.
// Invariants needed and kept: the cfg-x64 contract.
#include <optional>

#include "cfg_edit.h"
#include "ir/eval.h"
#include "x64/eval_x64.h"
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

namespace {

bool flags_user(OpId op) { return op == Op::X64Jcc || op == Op::X64SetCC || op == Op::X64CMov; }

struct Boolean {
  NodeId setcc = 0;
  unsigned known_bits = 0;  // the low bits of the register that are exactly 0 or 1
};

std::optional<Boolean> boolean_of(const CfgEdit& g, NodeId v) {
  const Node& n = g.node(v);
  if (n.op == Op::X64SetCC) return Boolean{v, 8};
  if (n.op == Op::X64MovZX && g.op(n.inputs[0]) == Op::X64SetCC) {
    std::optional<unsigned> from = type_bits_at(n, 0), to = type_bits_at(n, 1);
    if (!from || !to || *from != 8) return std::nullopt;
    return Boolean{n.inputs[0], *to >= 32 ? 64u : *to};
  }
  return std::nullopt;
}

// Whether user condition cc on the flags of compare f of v holds, for v = r.
std::optional<bool> holds(const Node& f, x64::Cond cc, uint64_t r) {
  std::optional<uint64_t> flags = compare_flags(f, r, r);
  if (!flags) return std::nullopt;
  return x64_cond(cc, *flags);
}

// The condition U should read off F0's flags, if the rewrite applies.
std::optional<x64::Cond> rewritten(const CfgEdit& g, NodeId user, NodeId f, const Boolean& b) {
  const Node& fn = g.node(f);
  std::optional<unsigned> bits = type_bits_at(fn, 0);
  std::optional<x64::Cond> cc = cond_at(g.node(user), 0), cc0 = cond_at(g.node(b.setcc), 0);
  if (!bits || !cc || !cc0 || !is_compare(g.op(g.node(b.setcc).inputs[0]))) return std::nullopt;
  bool two = fn.op == Op::X64Cmp || fn.op == Op::X64Test;
  if (two && fn.inputs[1] != fn.inputs[0]) return std::nullopt;
  if (*bits > b.known_bits) {
    // Only a mask that reads none of the unknown bits.
    if (fn.op != Op::X64TestI || (truncate_to(fn.literals[1].bits(), *bits) >> b.known_bits) != 0) return std::nullopt;
  }
  std::optional<bool> on0 = holds(fn, *cc, 0), on1 = holds(fn, *cc, 1);
  if (!on0 || !on1 || *on0 == *on1) return std::nullopt;
  return *on1 ? *cc0 : x64::negate(*cc0);
}

}  // namespace

size_t reuse_flags(Function& fn, const ModuleHeader&, FunctionCache&) {
  CfgEdit g(fn);
  size_t changes = 0;
  NodeId count = static_cast<NodeId>(fn.nodes.size());
  for (NodeId user = 0; user < count; ++user) {
    if (!flags_user(g.op(user))) continue;
    NodeId f = g.node(user).inputs[0];
    if (!is_compare(g.op(f)) || g.node(f).inputs.empty()) continue;
    std::optional<Boolean> b = boolean_of(g, g.node(f).inputs[0]);
    if (!b) continue;
    std::optional<x64::Cond> cc = rewritten(g, user, f, *b);
    if (!cc) continue;
    Node copy = g.node(g.node(b->setcc).inputs[0]);
    copy.loc = g.node(f).loc;
    NodeId fresh = g.add(std::move(copy));
    uint32_t block = g.placed_in(f);
    const std::vector<NodeId>& nodes = g.block(block).nodes;
    size_t pos = static_cast<size_t>(std::find(nodes.begin(), nodes.end(), f) - nodes.begin());
    g.remove_from_block(f);
    g.kill(f);
    g.place(fresh, block, pos);
    g.node(user).inputs[0] = fresh;
    set_cond(g.node(user), 0, *cc);
    ++changes;
  }
  if (changes > 0) g.finish();
  return changes;
}

}  // namespace pl::cfgopt
