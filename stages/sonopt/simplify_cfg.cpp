// simplify_cfg.cpp - control-flow simplification on the sea of nodes.
//
// Rules, applied until none applies (each removes nodes, so it ends):
//  1. A phi whose inputs are one value x, apart from the phi itself, is x
//     (Braun et al., "Simple and Efficient Construction of SSA Form", CC
//     2013: trivial phis). Guard: x must not read the phi through non-phi
//     nodes (in a block that cannot run, x may; replacing would make a
//     cycle the son contract forbids); a bounded walk checks it and, if the
//     bound is hit, the phi stays.
//  2. A region with one control input and no phi left is merged: after a
//     `jump` from block B, what hung off the region hangs off B and the jump
//     goes (straight-line blocks become one), unless one of the two holds
//     an effect and the other a division that may trap (nothing would order
//     them: FORMAT.md's son contract orders only memory); after a proj of
//     an `if`, what hung off the region hangs off the proj.
//  3. An empty diamond goes: an `if` whose two sides are empty (a proj that
//     the same region lists directly, or a proj with only a `jump` into it)
//     and whose region's phis read the same value along both edges becomes
//     one `jump`; the region loses one of the two inputs.
// Branches on constants and unreachable blocks are dce's (dce.cpp).
// Invariants needed: the son contract. Kept: the son contract; what hangs
// off a block still runs exactly when the block's code ran before.
#include <algorithm>

#include "passes.h"

namespace pl::sonopt {

namespace {

std::vector<NodeId> distinct_users(const Graph& g, NodeId n) {
  std::vector<NodeId> users(g.users(n).begin(), g.users(n).end());
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  return users;
}

// Whether `from` reads `phi` through a chain of nodes other than phis
// (kNone when the walk gave up after kBudget distinct nodes).
std::optional<bool> reads_through_non_phis(const Graph& g, NodeId from, NodeId phi, WalkMarks& marks) {
  constexpr size_t kBudget = 256;
  std::vector<NodeId> stack = {from};
  size_t seen = 0;
  marks.start(g.size());
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    if (n == phi) return true;
    if (g.op(n) == Op::Phi || marks.seen(n)) continue;
    if (++seen > kBudget) return std::nullopt;
    for (NodeId i : g.node(n).inputs) stack.push_back(i);
    for (NodeId c : g.node(n).control) stack.push_back(c);
  }
  return false;
}

bool fold_phi(Graph& g, NodeId phi, WalkMarks& marks) {
  NodeId only = kNone;
  for (NodeId i : g.node(phi).inputs) {
    if (i == phi || i == only) continue;
    if (only != kNone) return false;
    only = i;
  }
  if (only == kNone) return false;  // reads only itself: dce's business
  if (reads_through_non_phis(g, only, phi, marks) != false) return false;
  g.replace_uses(phi, only);
  g.kill(phi);
  return true;
}

bool has_phi(const Graph& g, NodeId region) {
  for (NodeId u : g.users(region))
    if (g.op(u) == Op::Phi) return true;
  return false;
}

// What hangs off control point `block`: whether an effect (call, store,
// volatile access, ...) and whether a division that may trap.
struct BlockRisks {
  bool effect = false, trapping_division = false;
};
BlockRisks risks_of(const Graph& g, NodeId block) {
  BlockRisks r;
  for (NodeId u : g.users(block)) {
    if (!g.alive(u) || g.node(u).control.empty() || g.node(u).control[0] != block) continue;
    r.effect = r.effect || is_effect(g.op(u));
    r.trapping_division = r.trapping_division || (eval_class(g.op(u)) == EvalClass::Divide && division_may_trap(g, u));
  }
  return r;
}

bool merge_region(Graph& g, NodeId region) {
  if (g.node(region).control.size() != 1 || has_phi(g, region)) return false;
  NodeId edge = g.node(region).control[0];
  if (g.op(edge) == Op::Jump) {
    NodeId block = g.node(edge).control[0];
    if (block == region) return false;  // a block looping on itself alone
    // A division that may trap has no memory input, so within one block
    // nothing orders it against the effects: joining a block with effects
    // and one with such a division would let son2cfg run the division
    // before a call that never returns (c-torture pr38819). They stay apart.
    BlockRisks above = risks_of(g, block), below = risks_of(g, region);
    if ((above.effect && below.trapping_division) || (above.trapping_division && below.effect)) return false;
    g.replace_uses(region, block);
    g.kill(region);
    g.kill(edge);
    return true;
  }
  if (g.op(edge) == Op::Proj) {
    g.replace_uses(region, edge);
    g.kill(region);
    return true;
  }
  return false;
}

size_t index_in(const Node& region, NodeId edge) {
  return static_cast<size_t>(std::find(region.control.begin(), region.control.end(), edge) - region.control.begin());
}

}  // namespace

std::array<NodeId, 2> if_projs(const Graph& g, NodeId branch) {
  std::array<NodeId, 2> proj = {kNone, kNone};
  for (NodeId u : g.users(branch))
    if (g.alive(u) && g.op(u) == Op::Proj) {
      int64_t k = g.node(u).literals[0].as_int();
      if (k == 0 || k == 1) proj[k] = u;
    }
  return proj;
}

std::pair<NodeId, NodeId> empty_side(const Graph& g, NodeId p) {
  std::vector<NodeId> users = distinct_users(g, p);
  if (users.size() != 1 || g.users(p).size() != 1) return {kNone, kNone};
  NodeId u = users[0];
  if (g.op(u) == Op::Region) return {p, u};
  if (g.op(u) != Op::Jump) return {kNone, kNone};
  std::vector<NodeId> after = distinct_users(g, u);
  if (after.size() != 1 || g.users(u).size() != 1 || g.op(after[0]) != Op::Region) return {kNone, kNone};
  return {u, after[0]};
}

namespace {

bool remove_diamond(Graph& g, NodeId branch) {
  std::array<NodeId, 2> proj = if_projs(g, branch);
  if (proj[0] == kNone || proj[1] == kNone || g.users(branch).size() != 2) return false;
  auto [e0, m0] = empty_side(g, proj[0]);
  auto [e1, m1] = empty_side(g, proj[1]);
  if (m0 == kNone || m0 != m1) return false;
  NodeId merge = m0;
  size_t i0 = index_in(g.node(merge), e0), i1 = index_in(g.node(merge), e1);
  for (NodeId u : distinct_users(g, merge))
    if (g.op(u) == Op::Phi && g.node(u).inputs[i0] != g.node(u).inputs[i1]) return false;
  Node jump;
  jump.op = Op::Jump;
  jump.control = {g.node(branch).control[0]};
  jump.loc = g.node(branch).loc;
  NodeId j = g.add(std::move(jump));
  g.set_control(merge, i0, j);
  g.remove_region_input(merge, i1);
  for (NodeId e : {e0, e1})
    if (g.op(e) == Op::Jump) g.kill(e);
  NodeId cond = g.node(branch).inputs[0];
  // An assignment on a side without code: from the merge on the variable
  // has the merge's binding (a phi's, now a select's) or none.
  g.retire_position(proj[0], merge);
  g.retire_position(proj[1], merge);
  g.kill(proj[0]);
  g.kill(proj[1]);
  g.kill(branch);
  g.kill_if_unused(cond);
  return true;
}

size_t one_sweep(Graph& g, WalkMarks& marks) {
  size_t changes = 0;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::Phi && fold_phi(g, n, marks)) ++changes;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::Region && merge_region(g, n)) ++changes;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::If && remove_diamond(g, n)) ++changes;
  return changes;
}

}  // namespace

size_t simplify_cfg(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  WalkMarks marks;
  size_t changes = 0;
  while (size_t c = one_sweep(g, marks)) changes += c;
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
