// loop_rotate.cpp - loop rotation: a loop whose header only tests its
// phis is tested at the bottom instead, when the test then costs nothing.
//
// The shape (son2cfg's layout of `while (x) { ...; x >>= 1; }`): a header
// H holding only phis, one compare C and the x64:jcc J reading it; two
// predecessors, the entry P and the latch L (dominated by H), both ending
// in a `jump`; two successors, the body B (which dominates L) and the exit
// E, each with H as its only predecessor. Rotated, H is gone:
//   P ends with C_P; J_P -> B, E   (the guard: C on the values entering
//                                   from P, run once)
//   L ends with C_L; J_L -> B, E   (C on the values leaving L: the loop is
//                                   tested at the bottom)
// and each phi phi of H becomes phi_B in B and phi_E in E, both merging
// (the value from P, the value from L). A use of phi in a block that B
// dominates reads phi_B, one in a block E dominates reads phi_E (a phi's
// input counts in its predecessor block); a value from L that is itself a
// phi of H is phi_B there (the value of the current trip). Every other use
// stops the rotation: only B and E are H's dominator-tree children then,
// and a join below both would need a new phi.
//
// When. The loop already runs tested at the bottom (son2cfg places the
// body before the header, entered by a jump to the test), so rotating pays
// only when C_L then disappears: C tests a phi against zero and the value
// L feeds it was computed in L by an instruction that sets the flags
// (flags-from-arith's test, arith_flags.h, asked for C_L at the end of L).
// `while (x) { n += x & 1; x >>= 1; }` then runs `shr; jne` per trip where
// it ran `shr; test; jne`, the guard costing one compare at the entry, as
// gcc and LLVM emit it. Otherwise rotation would only move the test, and
// give the back edge L -> B, now critical, a safe block at regalloc-x64 if
// it needs moves (a second jump per trip): the loop is left alone.
// A loop whose entry values decide the test is already rotated by
// thread-jumps (P goes straight to B, H becomes the latch's tail).
//
// Correctness. Every path in the new graph maps to an old one through H
// (P -> B was P -> H -> B, and so on), so whatever dominated a block still
// does, and B and E still dominate the uses given to phi_B and phi_E. The
// values C_P reads dominate P's end (they entered H from P, or are defined
// above H, which dominates P as well); likewise for C_L in L. C_P and C_L
// sit right before their jcc (the flags contract). The dominance section is
// recomputed by CfgEdit::finish().
// Cost: a dominator walk per use of H's phis, one CfgEdit per rotated
// loop; O(loops x nodes) per application.
// Invariants needed and kept: the cfg-x64 contract.
// What others do: LLVM's LoopRotate duplicates the header into the
// preheader (the guard) and the latch, for every loop whose header exits;
// gcc's copy-header pass (tree-ssa-loop-ch.cc) does the same on GIMPLE.
// Both rotate by default; we rotate only where the layout does not already
// give the bottom test.
#include <optional>

#include "arith_flags.h"
#include "cfg_edit.h"
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

namespace {

// The immediate dominator of each block (kNoBlock for block 0), from the
// function's dominance section.
std::vector<uint32_t> idoms(const CfgEdit& g) {
  std::vector<uint32_t> idom(g.num_blocks(), kNoBlock);
  const Function& fn = g.function();
  for (uint32_t b = 0; b < g.num_blocks(); ++b) {
    const std::optional<NodeId>& parent = fn.dominance->blocks[b].parent;
    if (parent) idom[b] = g.block_index(*parent);
  }
  return idom;
}

bool dominates(const std::vector<uint32_t>& idom, uint32_t a, uint32_t b) {
  for (uint32_t x = b; x != kNoBlock; x = idom[x])
    if (x == a) return true;
  return false;
}

struct Loop {
  uint32_t header, entry, latch, body, exit;
};

class Rotator {
 public:
  explicit Rotator(Function& fn) : g_(fn), idom_(idoms(g_)) {}

  // Rotates the first loop that qualifies; true if it did (the function
  // is then finished and the CfgEdit spent).
  bool rotate_one() {
    for (uint32_t h = 1; h < g_.num_blocks(); ++h) {
      std::optional<Loop> loop = shape(h);
      if (loop && pays(*loop) && uses_split(*loop)) {
        rotate(*loop);
        g_.finish();
        return true;
      }
    }
    return false;
  }

 private:
  std::optional<Loop> shape(uint32_t h) const {
    const std::vector<NodeId>& nodes = g_.block(h).nodes;
    size_t k = g_.phis(h).size();
    if (nodes.size() != k + 2) return std::nullopt;
    NodeId cmp = nodes[k], jcc = nodes[k + 1];
    if (!is_compare(g_.op(cmp)) || g_.op(jcc) != Op::X64Jcc || g_.node(jcc).inputs[0] != cmp) return std::nullopt;
    std::vector<uint32_t> preds = g_.preds(h);
    if (preds.size() != 2 || g_.num_succs(h) != 2) return std::nullopt;
    Loop loop{h, preds[0], preds[1], g_.succ(h, 0), g_.succ(h, 1)};
    if (dominates(idom_, h, loop.entry)) std::swap(loop.entry, loop.latch);
    if (dominates(idom_, h, loop.entry) || !dominates(idom_, h, loop.latch)) return std::nullopt;
    if (!dominates(idom_, loop.body, loop.latch)) std::swap(loop.body, loop.exit);
    if (!dominates(idom_, loop.body, loop.latch) || loop.body == h || loop.exit == h) return std::nullopt;
    for (uint32_t p : {loop.entry, loop.latch})
      if (g_.op(g_.terminator(p)) != Op::Jump) return std::nullopt;
    for (uint32_t s : {loop.body, loop.exit})
      if (g_.preds(s).size() != 1) return std::nullopt;
    return loop;
  }

  NodeId compare(uint32_t h) const { return g_.block(h).nodes[g_.block(h).nodes.size() - 2]; }
  NodeId branch(uint32_t h) const { return g_.terminator(h); }

  // The value phi (of the header) has along the edge from `pred`.
  NodeId incoming(const Loop& loop, NodeId phi, uint32_t pred) const {
    return g_.node(phi).inputs[g_.edge_position(pred, loop.header)];
  }

  bool is_header_phi(const Loop& loop, NodeId v) const {
    return g_.op(v) == Op::Phi && g_.placed_in(v) == loop.header;
  }

  // The compare as it reads at the end of `pred` (phis of the header
  // replaced by what they receive from pred; a header phi received from
  // the latch stays a header phi here and becomes its body phi in rotate()).
  Node compare_from(const Loop& loop, uint32_t pred) const {
    Node c = g_.node(compare(loop.header));
    for (NodeId& in : c.inputs)
      if (is_header_phi(loop, in)) in = incoming(loop, in, pred);
    return c;
  }

  // Whether the compare moved to the end of the latch reads the flags the
  // latch's arithmetic left (so the rotated loop saves the compare).
  bool pays(const Loop& loop) const {
    Node c = compare_from(loop, loop.latch);
    for (NodeId in : c.inputs)
      if (is_header_phi(loop, in)) return false;
    std::optional<x64::Cond> cc = cond_at(g_.node(branch(loop.header)), 0);
    size_t end = g_.block(loop.latch).nodes.size() - 1;  // where the jump is
    return cc && definer_flags(g_, loop.latch, end, c, *cc).has_value();
  }

  // The block a use reads its input in: a phi reads input i at the end of
  // its block's predecessor i.
  uint32_t use_block(NodeId user, size_t i) const {
    uint32_t b = g_.placed_in(user);
    return g_.op(user) == Op::Phi ? g_.preds(b)[i] : b;
  }

  // Whether every use of the header's phis (but the compare's and the
  // header phis' own) lies below the body or below the exit.
  bool uses_split(const Loop& loop) const {
    NodeId cmp = compare(loop.header);
    const Function& fn = g_.function();
    for (NodeId u = 0; u < fn.nodes.size(); ++u) {
      if (!g_.alive(u) || u == cmp || g_.placed_in(u) == kNoBlock || g_.placed_in(u) == loop.header) continue;
      const InputList& in = fn.nodes[u].inputs;
      for (size_t i = 0; i < in.size(); ++i) {
        if (!is_header_phi(loop, in[i])) continue;
        uint32_t b = use_block(u, i);
        if (!dominates(idom_, loop.body, b) && !dominates(idom_, loop.exit, b)) return false;
      }
    }
    return true;
  }

  // Replaces pred's jump by the compare (phis read along the edge from
  // pred, header phis mapped by `body_phi`) and a copy of the header's jcc.
  NodeId end_with_branch(const Loop& loop, uint32_t pred, const std::vector<std::pair<NodeId, NodeId>>& body_phi) {
    Node c = compare_from(loop, pred);
    for (NodeId& in : c.inputs)
      for (const auto& [phi, mapped] : body_phi)
        if (in == phi) in = mapped;
    NodeId jump = g_.terminator(pred);
    g_.remove_from_block(jump);
    g_.kill(jump);
    NodeId cmp = g_.add(std::move(c));
    Node j = g_.node(branch(loop.header));
    j.control = {g_.block(pred).node};
    j.inputs[0] = cmp;
    NodeId jcc = g_.add(std::move(j));
    g_.place(cmp, pred, g_.block(pred).nodes.size());
    g_.place(jcc, pred, g_.block(pred).nodes.size());
    g_.block(pred).successors = g_.block(loop.header).successors;
    return jcc;
  }

  void rotate(const Loop& loop) {
    std::vector<NodeId> phis = g_.phis(loop.header);
    // New phis: control set below, inputs (from entry, from latch).
    std::vector<std::pair<NodeId, NodeId>> body_phi, exit_phi;
    for (NodeId phi : phis) {
      Node proto = g_.node(phi);
      proto.control = {g_.block(loop.body).node};
      body_phi.push_back({phi, g_.add(proto)});
      proto.control = {g_.block(loop.exit).node};
      exit_phi.push_back({phi, g_.add(proto)});
    }
    auto mapped_from_latch = [&](NodeId v) {
      for (const auto& [phi, b] : body_phi)
        if (v == phi) return b;
      return v;
    };
    for (size_t i = 0; i < phis.size(); ++i) {
      NodeId from_entry = incoming(loop, phis[i], loop.entry);
      NodeId from_latch = mapped_from_latch(incoming(loop, phis[i], loop.latch));
      g_.node(body_phi[i].second).inputs = {from_entry, from_latch};
      g_.node(exit_phi[i].second).inputs = {from_entry, from_latch};
    }
    // Uses below B and below E (before the new nodes are placed).
    const Function& fn = g_.function();
    NodeId cmp = compare(loop.header);
    for (NodeId u = 0; u < fn.nodes.size(); ++u) {
      if (!g_.alive(u) || u == cmp || g_.placed_in(u) == kNoBlock || g_.placed_in(u) == loop.header) continue;
      InputList& in = g_.node(u).inputs;
      for (size_t i = 0; i < in.size(); ++i) {
        if (!is_header_phi(loop, in[i])) continue;
        size_t k = 0;
        while (phis[k] != in[i]) ++k;
        in[i] = dominates(idom_, loop.body, use_block(u, i)) ? body_phi[k].second : exit_phi[k].second;
      }
    }
    NodeId from_entry = end_with_branch(loop, loop.entry, body_phi);
    NodeId from_latch = end_with_branch(loop, loop.latch, body_phi);
    for (uint32_t s : {loop.body, loop.exit}) g_.node(g_.block(s).node).control = {from_entry, from_latch};
    for (size_t i = 0; i < phis.size(); ++i) {
      g_.place(body_phi[i].second, loop.body, i);
      g_.place(exit_phi[i].second, loop.exit, i);
    }
    // The header is unreachable now; finish() removes it.
  }

  CfgEdit g_;
  std::vector<uint32_t> idom_;
};

}  // namespace

size_t loop_rotate(Function& fn, const ModuleHeader&, FunctionCache&) {
  size_t changes = 0;
  while (Rotator(fn).rotate_one()) ++changes;
  return changes;
}

}  // namespace pl::cfgopt
