// schedule_late.cpp - schedule_late: the block of every floating node (Click
// 1995, "Schedule Late" and "Selecting a Block").
//
// Nodes are taken users first (schedule_early's postorder, backwards), so
// every user already has its final block. The latest legal block is the
// least common ancestor, in the dominator tree, of the blocks of the uses; a
// phi uses its input i at the end of predecessor i, not in its own block. A
// use through a tuple proj counts as a use of the tuple. The node then goes
// to the block of least loop depth on the dominator-tree path from that
// latest block up to its earliest one, the deepest such block on ties: loop
// invariants leave their loops, and code that only one branch uses sinks into
// that branch (its uses' LCA is in the branch).
//
// Memory anti-dependences (Click's paper leaves them to the reader; Simple's
// find_anti_dep, and the place where C2 and Simple had bugs): a node that
// reads memory state M without producing memory (a load) must execute while
// M is the current memory. Every other node that consumes M and produces a
// newer state (a store, call, copy, volatile access) ends M's lifetime, and
// so does a phi that takes M along an edge (the memory after the edge is the
// phi's). So the load's latest block is also clamped to the LCA of those
// consumers' blocks (the predecessor's for a phi): the load then dominates
// each of them, and executes before it on every path; within one block,
// local_schedule orders the load first. This clamps harder than C2's
// version (a store on a branch the load's uses never reach still lifts the
// load above the branch); it is simple and cannot miss a path. At `son`
// every load is pinned, so this matters for floating memory readers of
// later levels; a memory producer must be pinned (reported otherwise).
//
// Departures from the paper: the block selection walks the dominator path
// with binary-lifted minima (O(log n) per node, not O(path length)), and the
// LCA is binary-lifted too, so the pass is O(n log n). Nodes whose meaning
// can fail (a shift by an amount that is not a constant in range: pipe-run
// reports it as undefined behaviour) are not hoisted: they stay at the LCA
// of their uses, never executed on a path the program would not have
// computed them on. An x64 flags producer stays at its consumer's block
// (flags do not live across blocks). An x64 constant only phis use stays
// at the LCA of its phi edges (only_phi_constant). A node no live node uses
// stays at its earliest block.
//
// Copies (partial dead code elimination by sinking with duplication; the
// idea of Knoop, Ruething and Steffen, "Partial Dead Code Elimination",
// PLDI 1994, restricted to what GCM's schedule late can decide locally).
// The LCA of the uses can be a block that branches to cases each using the
// node: after GVN has merged `pc + 1` of every case of a switch, the LCA is
// the dispatch, and every dispatch would compute it, also for the cases that
// do not use it. So a node that stays at its latest block `lca` (not hoisted
// out of a loop: the chosen block is lca itself) gets one copy per
// successor subtree of lca holding uses, each copy at the LCA of its uses
// there (then again the shallowest block up to the subtree's root), and the
// split repeats below each copy (down a compare chain). A split is made only
//  - for a cheap node: one plain value ("v") from at most two inputs, none
//    of them memory or flags (PURE opcodes: adds, leas, extensions,
//    shifts, constants...; not a stack slot, whose identity is the object
//    it stands for). Two inputs at most bounds what the copies keep alive
//    into the branches: the inputs instead of the value (a constant input
//    is copied along, being itself a cheap node with uses in the cases);
//  - when no use is in the block itself, and every use lies below a
//    successor whose only predecessor is the block: a path from the block
//    then enters at most one of the subtrees before it comes back to the
//    block, so no path computes the node more often than before (a copy at
//    a join that another case also reaches could run twice);
//  - when it spares some path the computation: a successor with no use
//    below it, or a copy strictly below its subtree's root, or such a split
//    further down (splits that spare nothing are undone: code size only);
//  - within kMaxCopies (16) placements per node, spent top-down
//    (breadth-first), so a long compare chain splits its first cases and
//    keeps one copy for the rest.
// The original keeps the first placement; each copy is appended to the
// function (emit numbers it right after its original) and its users are
// pointed at it. The uses a copy adds to its inputs are kept in a side list
// (extra_), so that the inputs, placed after it, see them, and so are the
// uses pointed at a copy; the users index is patched with them at the end.
// Placement stays legal: each copy's block is dominated by lca, which its
// inputs' blocks dominate, and dominates its uses.
#include <algorithm>
#include <optional>

#include "ir/eval.h"
#include "son2cfg.h"
#include "x64/x64.h"

namespace pl::son2cfg {

namespace {

// Per dominator-tree node and level k: the block of least loop depth among
// the 2^k blocks from v upwards (the lowest one on ties).
class ShallowestOnPath {
 public:
  ShallowestOnPath(const TreeIndex& domi, const std::vector<uint32_t>& loop_depth)
      : domi_(domi), depth_(loop_depth) {
    const size_t n = loop_depth.size();
    best_.assign(domi.levels(), std::vector<uint32_t>(n));
    for (uint32_t v = 0; v < n; ++v) best_[0][v] = v;
    for (size_t k = 1; k < best_.size(); ++k)
      for (uint32_t v = 0; v < n; ++v) {
        uint32_t mid = domi.up(k - 1)[v];
        best_[k][v] = mid == kNone ? best_[k - 1][v] : pick(best_[k - 1][v], best_[k - 1][mid]);
      }
  }

  // The best block on the path from `low` up to `high` (an ancestor), both included.
  uint32_t query(uint32_t low, uint32_t high) const {
    uint32_t count = domi_.depth(low) - domi_.depth(high) + 1;
    uint32_t best = low;
    for (size_t k = 0; count != 0; ++k, count >>= 1) {
      if (!(count & 1)) continue;
      best = pick(best, best_[k][low]);
      low = domi_.up(k)[low];
    }
    return best;
  }

 private:
  uint32_t pick(uint32_t lower, uint32_t upper) const { return depth_[upper] < depth_[lower] ? upper : lower; }

  const TreeIndex& domi_;
  const std::vector<uint32_t>& depth_;
  std::vector<std::vector<uint32_t>> best_;
};

// At most this many copies of one node (the original included), and only
// of nodes with at most this many inputs (see the header).
constexpr uint32_t kMaxCopies = 16;
constexpr size_t kMaxCopiedInputs = 2;

class Late {
 public:
  Late(Graph& g, const TreeIndex& domi, const Loops& loops, const std::vector<uint32_t>& early)
      : g_(g), domi_(domi), early_(early), loops_(loops), shallowest_(domi, loops.depth) {
    extra_head_.assign(g.fn.nodes.size(), kNone);
    mark_loops_that_call();
  }

  void place_fixed_tuple_projs() {
    for (NodeId id = 0; id < g_.fn.nodes.size(); ++id)
      if (g_.role[id] == Role::TupleProj) {
        NodeId tuple = g_.node(id).inputs[0];
        Role r = g_.role[tuple];
        if (r != Role::Floating && r != Role::TupleProj) g_.block[id] = g_.block[tuple];
      }
  }

  void place(NodeId id) {
    if (g_.role[id] != Role::Floating) return;  // dead, or a tuple proj (placed with its tuple)
    if (produces_memory(g_.node(id).op))
      g_.fail(id, "a node that produces memory needs a control input (memory operations are pinned)");
    uint32_t lca = kNone;
    for_each_use(id, [&](const Users::Use& u) {
      if (g_.role[u.user] != Role::TupleProj) lca = domi_.lca(lca, use_block(u));
      else for_each_use(u.user, [&](const Users::Use& w) { lca = domi_.lca(lca, use_block(w)); });
    });
    lca = clamp_below_memory_consumers(id, lca);
    uint32_t chosen = early_[id];
    if (lca != kNone) {
      if (!domi_.is_ancestor(early_[id], lca))
        g_.fail(id, "no block can hold the node: its inputs are available only from the block of " +
                        node_name(g_.flow.head[early_[id]]) + ", which does not dominate the block of " +
                        node_name(g_.flow.head[lca]) + " where it is needed (or where the memory it reads is "
                        "overwritten)");
      chosen = may_fail(id) || produces_flags(g_.node(id).op) || only_phi_constant(id)
                   ? lca
                   : shallowest_.query(lca, highest_start(id, lca));
      if (chosen == lca && may_copy(id) && place_copies(id, lca)) return;
    }
    g_.block[id] = chosen;
    for (const Users::Use* u = g_.users.first(id); u != g_.users.last(id); ++u)
      if (g_.role[u->user] == Role::TupleProj) g_.block[u->user] = chosen;
  }

 private:
  // Every use of n: the users index, then the uses copies made since.
  template <class F>
  void for_each_use(NodeId n, F&& f) const {
    for (const Users::Use* u = g_.users.first(n); u != g_.users.last(n); ++u) f(*u);
    for (uint32_t e = extra_head_[n]; e != kNone; e = extra_[e].next) f(extra_[e].use);
  }

  // A node cheap and harmless to compute in several places: one plain
  // value from at most two values (no memory, no flags in or out). A
  // stack slot is an object, not a value: a copy would be another object.
  bool may_copy(NodeId id) const {
    if (g_.users.count(id) + (extra_head_[id] != kNone) < 2) return false;  // one use: nothing to split
    const Node& m = g_.node(id);
    if (m.inputs.size() > kMaxCopiedInputs || m.op == Op::StackSlot || m.op == Op::X64StackSlot) return false;
    const OpInfo& info = op_info(m.op);
    return info.has(PURE) && info.results == "v" && info.inputs.find_first_of("mf") == std::string_view::npos;
  }

  struct UseAt {
    NodeId user;
    uint32_t slot;
    uint32_t block;  // where the use needs the value
    uint32_t child;  // the successor subtree it lies in (set by split)
  };
  // A set of uses (a range of uses_) and the block one copy would go to;
  // split: one child part per successor subtree holding uses.
  struct Part {
    uint32_t begin, end, block;
    bool may_split;
    uint32_t first_child = kNone, children = 0;
    bool below_root = false;  // strictly below its successor subtree's root: paths through the root may miss it
    bool spares = false;      // split, and some successor of its block has no use below it
    bool useful = false;      // placing it (or its split) spares some path through its block the computation
  };

  // Partial dead code elimination: places copies of `id` (latest block
  // `lca`, not hoisted) in the branches below lca that use it, when some
  // path from lca then computes it no more. False: nothing to gain, the
  // caller places the node at lca.
  bool place_copies(NodeId id, uint32_t lca) {
    if (g_.flow.graph.succs[lca].size() < 2) return false;
    // Most nodes with several uses have one in lca itself: check that first.
    for (const Users::Use* u = g_.users.first(id); u != g_.users.last(id); ++u)
      if (use_block(*u) == lca) return false;
    uses_.clear();
    bool at_lca = false;
    for_each_use(id, [&](const Users::Use& u) {
      uint32_t b = use_block(u);
      if (b == lca) at_lca = true;
      if (b != kNone) uses_.push_back({u.user, u.slot, b, kNone});
    });
    if (at_lca) return false;
    parts_.clear();
    parts_.push_back({0, static_cast<uint32_t>(uses_.size()), lca, true});
    uint32_t copies = 1;
    for (size_t p = 0; p < parts_.size(); ++p)
      if (parts_[p].may_split) split(p, copies);
    for (size_t p = parts_.size(); p-- > 0;) {
      Part& part = parts_[p];
      bool split_gain = part.spares;
      for (uint32_t c = 0; c < part.children; ++c) split_gain |= parts_[part.first_child + c].useful;
      if (!split_gain) part.children = 0;  // no gain: one copy at the part's block
      part.useful = split_gain || part.below_root;
    }
    if (parts_[0].children == 0) return false;
    bool first = true;
    std::vector<uint32_t>& stack = stack_;
    stack.assign(1, 0);
    while (!stack.empty()) {
      const Part part = parts_[stack.back()];
      stack.pop_back();
      for (uint32_t c = part.children; c-- > 0;) stack.push_back(part.first_child + c);
      if (part.children != 0) continue;
      if (first) g_.block[id] = part.block;
      else place_copy(id, part);
      first = false;
    }
    return true;
  }

  // Splits part p by the successor of its block each use lies below, if
  // every use lies below one (whose only predecessor is the block: then a
  // path from the block enters at most one of the subtrees) and the copy
  // budget allows.
  void split(size_t p, uint32_t& copies) {
    const Part part = parts_[p];
    const uint32_t r = part.block;
    const std::vector<uint32_t>& succs = g_.flow.graph.succs[r];
    if (succs.size() < 2) return;
    const uint32_t depth = domi_.depth(r) + 1;
    for (uint32_t i = part.begin; i < part.end; ++i) {
      UseAt& u = uses_[i];
      if (u.block == r) return;
      u.child = domi_.ancestor_at_depth(u.block, depth);
      if (g_.flow.graph.preds[u.child].size() != 1) return;
    }
    auto first = uses_.begin() + part.begin, last = uses_.begin() + part.end;
    std::sort(first, last, [](const UseAt& a, const UseAt& b) {
      return a.child != b.child ? a.child < b.child : a.user != b.user ? a.user < b.user : a.slot < b.slot;
    });
    uint32_t children = 1;
    for (auto it = first + 1; it < last; ++it) children += it->child != (it - 1)->child;
    if (copies + children - 1 > kMaxCopies) return;
    copies += children - 1;
    parts_[p].first_child = static_cast<uint32_t>(parts_.size());
    parts_[p].children = children;
    parts_[p].spares = children < succs.size();
    for (uint32_t i = part.begin; i < part.end;) {
      uint32_t j = i, sub_lca = kNone;
      for (; j < part.end && uses_[j].child == uses_[i].child; ++j) sub_lca = domi_.lca(sub_lca, uses_[j].block);
      uint32_t at = shallowest_.query(sub_lca, uses_[i].child);
      parts_.push_back({i, j, at, at == sub_lca, kNone, 0, at != uses_[i].child});
      i = j;
    }
  }

  // A copy of `id` in part's block, for part's uses.
  void place_copy(NodeId id, const Part& part) {
    Function& fn = g_.fn;
    const NodeId copy = static_cast<NodeId>(fn.nodes.size());
    Node node = fn.nodes[id];
    fn.nodes.push_back(std::move(node));
    g_.role.push_back(Role::Floating);
    g_.block.push_back(part.block);
    extra_head_.push_back(kNone);
    g_.copies.emplace_back(id, copy);
    for (uint32_t i = part.begin; i < part.end; ++i) {
      fn.nodes[uses_[i].user].inputs[uses_[i].slot] = copy;
      add_extra_use(copy, {uses_[i].user, uses_[i].slot});
    }
    const auto& inputs = fn.nodes[copy].inputs;
    for (uint32_t s = 0; s < inputs.size(); ++s) add_extra_use(inputs[s], {copy, s});
  }

  void add_extra_use(NodeId n, Users::Use use) {
    extra_.push_back({use, extra_head_[n]});
    extra_head_[n] = static_cast<uint32_t>(extra_.size() - 1);
  }

 public:
  // The users index with the copies: each node's uses from the index (for a
  // copied node, those still pointing at it), then its extra uses.
  Users users_with_copies() const {
    const Function& fn = g_.fn;
    const size_t n = fn.nodes.size(), old_n = g_.users.begin.size() - 1;
    std::vector<char> copied(old_n, 0);
    for (const auto& [original, copy] : g_.copies) copied[original] = 1;
    Users u;
    u.begin.reserve(n + 1);
    u.uses.reserve(g_.users.uses.size() + extra_.size());
    u.begin.push_back(0);
    for (NodeId id = 0; id < n; ++id) {
      if (id < old_n) {
        for (const Users::Use* w = g_.users.first(id); w != g_.users.last(id); ++w)
          if (!copied[id] || fn.nodes[w->user].inputs[w->slot] == id) u.uses.push_back(*w);
      }
      for (uint32_t e = extra_head_[id]; e != kNone; e = extra_[e].next) u.uses.push_back(extra_[e].use);
      u.begin.push_back(static_cast<uint32_t>(u.uses.size()));
    }
    return u;
  }

 private:

  // The block where a use needs the value; kNone for a dead user or a phi
  // input along an edge from unreachable code.
  uint32_t use_block(const Users::Use& u) const {
    switch (g_.role[u.user]) {
      case Role::Dead: return kNone;
      case Role::Phi: return g_.phi_pred(u.user, u.slot);
      default: return g_.block[u.user];
    }
  }

  uint32_t clamp_below_memory_consumers(NodeId id, uint32_t lca) const {
    const Node& m = g_.node(id);
    for (uint32_t s = 0; s < m.inputs.size(); ++s) {
      if (!is_memory_slot(m.op, s)) continue;
      NodeId mem = m.inputs[s];
      for (const Users::Use* u = g_.users.first(mem); u != g_.users.last(mem); ++u) {
        if (u->user == id) continue;
        Role r = g_.role[u->user];
        if (r == Role::Phi || (r != Role::Dead && produces_memory(g_.node(u->user).op)))
          lca = domi_.lca(lca, use_block(*u));
      }
    }
    return lca;
  }

  // The highest block the node may be hoisted to on the dominator path
  // up from lca: its earliest block, but for a constant made anew in one
  // instruction (x64::rematerializable) not outside the innermost loop
  // around lca that calls (cold calls aside: mark_loops_that_call):
  // hoisted past the calls, it would have to
  // survive them, in a callee-saved register held through the whole loop
  // (shuffled along its back edges) or made anew after each call anyway.
  // The blocks between lca and that loop's header all lie in the loop
  // (each dominates lca, in the loop, and is dominated by the header).
  uint32_t highest_start(NodeId id, uint32_t lca) const {
    if (!x64::rematerializable(g_.node(id))) return early_[id];
    uint32_t h = loops_.header[lca];
    while (h != kNone && !loop_calls_[h]) h = loops_.parent[h];
    if (h == kNone || domi_.is_ancestor(h, early_[id])) return early_[id];
    return h;
  }

  // An x64 constant that only phis use: hoisted, it would hold a register
  // through the loop and still need a copy on each edge (a phi is redefined
  // in the loop, so it cannot share the constant's register); at its
  // latest block it is made where the edge needs it, in the phi's place.
  // An integer immediate (x64:movi) or +0.0 (x64:fzero, xorps: as cheap as
  // the copy it replaces); not a float constant from read-only data
  // (x64:fconst), whose load costs more than a copy between registers.
  bool only_phi_constant(NodeId id) const {
    if (g_.node(id).op != Op::X64MovI && g_.node(id).op != Op::X64FZero) return false;
    bool only_phis = true;
    for_each_use(id, [&](const Users::Use& u) {
      only_phis &= g_.role[u.user] == Role::Phi || g_.role[u.user] == Role::Dead;
    });
    return only_phis;
  }

  // A generic shift whose amount is not a constant below the width.
  bool may_fail(NodeId id) const {
    const Node& m = g_.node(id);
    if (eval_class(m.op) != EvalClass::Shift) return false;
    if (m.inputs.size() != 2 || m.literals.empty()) return true;
    const Node& amount = g_.node(m.inputs[1]);
    std::optional<ValueType> type = literal_value_type(m.literals[0]);
    bool same_type = amount.op == Op::Const && amount.literals.size() == 2 && amount.literals[0] == m.literals[0];
    if (!type || !same_type || !amount.literals[1].is_int()) return true;
    return !shift_in_range(const_value(amount.literals[1], type_bits(*type)), type_bits(*type));
  }

  struct ExtraUse {
    Users::Use use;
    uint32_t next;  // the node's next extra use, kNone
  };

  Graph& g_;
  const TreeIndex& domi_;
  const std::vector<uint32_t>& early_;
  const Loops& loops_;
  ShallowestOnPath shallowest_;
  std::vector<char> loop_calls_;  // header -> its loop (or one inside it) holds a call

  // A cold call (x64::ColdCallees: sqrt's errno call, a call of a
  // noreturn function) does not count: it is guessed rare, as regalloc-x64
  // guesses it, which then makes the constant anew after the call on that
  // path alone, while the usual path keeps it in its register through the
  // loop.
  void mark_loops_that_call() {
    loop_calls_.assign(loops_.is_header.size(), 0);
    for (NodeId id = 0; id < g_.fn.nodes.size(); ++id) {
      if (g_.role[id] != Role::Pinned) continue;
      OpId op = g_.node(id).op;
      if (op >= kNumOps || !op_info(op).has(CALL)) continue;
      if (g_.cold && g_.cold->is_cold_call(g_.node(id))) continue;
      for (uint32_t h = loops_.header[g_.block[id]]; h != kNone && !loop_calls_[h]; h = loops_.parent[h])
        loop_calls_[h] = 1;
    }
  }
  std::vector<uint32_t> extra_head_;  // node -> its first use by a copy (an index into extra_), kNone
  std::vector<ExtraUse> extra_;
  std::vector<UseAt> uses_;  // place_copies' scratch
  std::vector<Part> parts_;
  std::vector<uint32_t> stack_;
};

}  // namespace

void schedule_late(Graph& g, const TreeIndex& domi, const Loops& loops, const std::vector<uint32_t>& early,
                   const std::vector<NodeId>& postorder) {
  Late late(g, domi, loops, early);
  late.place_fixed_tuple_projs();
  for (size_t i = postorder.size(); i-- > 0;) late.place(postorder[i]);
  if (!g.copies.empty()) g.users = late.users_with_copies();
}

}  // namespace pl::son2cfg
