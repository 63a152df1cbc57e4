// dce.cpp - dead code elimination: unreachable blocks, branches on constants,
// and every node that reaches no effect, return or control.
//
// Algorithm (mark and sweep, linear in the graph):
//  1. Blocks (son_cfg.h) reachable from the start, where an `if` whose
//     condition is a `const` reaches only the side it takes.
//  2. Each reachable region drops the control inputs coming from unreachable
//     blocks, and its phis the matching inputs (input i belongs to control
//     input i).
//  3. Roots, in reachable blocks: terminators (`if`, `jump`, `return`),
//     effects (`store`, `copy`, `call`, `asm`, volatile accesses), and divisions
//     that may trap (a zero divisor, or INT_MIN / -1: the trap must still
//     happen at run time; see eval.h). Everything the roots reach through
//     inputs and control inputs is live, and both projs of a live `if` on a
//     non-constant condition; the rest is removed. Plain loads are not roots:
//     a load nobody reads goes (in C, reading through a bad pointer is
//     undefined behaviour, so a dead one may vanish).
//  4. Each live `if` on a constant becomes a `jump` into the side it takes:
//     regions that listed the taken proj list the jump; pinned nodes that
//     hung off the proj hang off a new one-input region after the jump
//     (simplify-cfg merges it into the block).
//  0. First, an `asm` that is not volatile, clobbers no memory, has no
//     memory operand and whose outputs nobody reads is bypassed on the
//     memory chain and removed (gcc's rule for such an asm).
// Paper: the classic mark-sweep DCE on SSA (Cytron et al. 1991, section 7.1),
// here over the sea of nodes, where control is data too.
// Invariants needed: the son contract. Kept: the son contract; every block
// left is reachable; no node is left that nothing live reads.
#include <algorithm>

#include "ir/asm.h"
#include "passes.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

// The constant an `if` branches on, if it is one.
std::optional<bool> constant_condition(const Graph& g, NodeId branch) {
  NodeId cond = g.node(branch).inputs[0];
  if (!g.is_const(cond)) return std::nullopt;
  return g.const_value_of(cond) != 0;
}

std::vector<uint8_t> reachable_blocks(const Graph& g, const SonCfg& cfg) {
  std::vector<uint8_t> seen(cfg.blocks.size(), 0);
  if (cfg.blocks.empty()) return seen;
  std::vector<uint32_t> stack = {0};
  seen[0] = true;
  while (!stack.empty()) {
    uint32_t b = stack.back();
    stack.pop_back();
    NodeId t = cfg.terminator[b];
    std::optional<bool> taken;
    if (t != kNone && g.op(t) == Op::If) taken = constant_condition(g, t);
    for (uint32_t s : cfg.graph.succs[b]) {
      if (taken) {
        NodeId point = cfg.blocks[s];
        bool is_proj_of_t = g.op(point) == Op::Proj && g.node(point).inputs[0] == t;
        if (is_proj_of_t && g.node(point).literals[0].as_int() != (*taken ? 0 : 1)) continue;
      }
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back(s);
      }
    }
  }
  return seen;
}

// The block an edge into a region comes from: the jump's block, or the proj.
uint32_t edge_source(const Graph& g, const SonCfg& cfg, NodeId edge) {
  if (g.op(edge) == Op::Jump) return cfg.block_of_node(g, edge);
  return cfg.block_of[edge];
}

size_t prune_dead_edges(Graph& g, const SonCfg& cfg, const std::vector<uint8_t>& live_block) {
  size_t changes = 0;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    NodeId r = cfg.blocks[b];
    if (!live_block[b] || g.op(r) != Op::Region) continue;
    for (size_t i = g.node(r).control.size(); i-- > 0;) {
      uint32_t from = edge_source(g, cfg, g.node(r).control[i]);
      if (from != DomTree::kNone && live_block[from]) continue;
      g.remove_region_input(r, i);
      ++changes;
    }
  }
  return changes;
}


std::vector<uint8_t> mark_live(const Graph& g, const SonCfg& cfg, const std::vector<uint8_t>& live_block) {
  std::vector<uint8_t> live(g.size(), 0);
  std::vector<NodeId> stack;
  auto push = [&](NodeId n) {
    if (!live[n]) {
      live[n] = true;
      stack.push_back(n);
    }
  };
  for (NodeId n = 0; n < g.size(); ++n) {
    if (!g.alive(n)) continue;
    if (g.op(n) == Op::Start) push(n);
    if (g.node(n).control.empty() || g.op(n) == Op::Region) continue;
    uint32_t b = cfg.block_of_node(g, n);
    if (b == DomTree::kNone || !live_block[b]) continue;
    if (g.has(n, TERMINATOR) || must_run(g, n)) push(n);
  }
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    for (NodeId c : g.node(n).control) push(c);
    for (NodeId i : g.node(n).inputs) push(i);
    if (g.op(n) == Op::If && !constant_condition(g, n))
      for (int64_t k = 0; k < 2; ++k)
        if (NodeId p = g.proj(n, k); p != kNone) push(p);
  }
  return live;
}

size_t sweep(Graph& g, const std::vector<uint8_t>& live) {
  std::vector<NodeId> dead;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && !live[n]) dead.push_back(n);
  g.kill_set(dead);
  return dead.size();
}

// Step 4 for one `if` on a constant.
void fold_branch(Graph& g, NodeId branch) {
  bool taken = *constant_condition(g, branch);
  NodeId proj = g.proj(branch, taken ? 0 : 1);
  NodeId block = g.node(branch).control[0];
  Node jump;
  jump.op = Op::Jump;
  jump.control = {block};
  jump.loc = g.node(branch).loc;
  // Debug bindings at the side that stays take effect where the branch's
  // block ends (its only way on now). The other side's code goes
  // (unreachable now), but it may have run: exit-values deletes a loop by
  // deciding its test. retire_dead_sides made its bindings kills where the
  // surviving side starts, before that side's own bindings; never dropped:
  // the variable is unknown there rather than shown with its value from
  // before the loop.
  if (proj != kNone) g.move_position(proj, g.end_position(block));
  NodeId j = g.add(std::move(jump));
  if (proj != kNone) {
    std::vector<NodeId> users(g.users(proj).begin(), g.users(proj).end());
    std::sort(users.begin(), users.end());
    users.erase(std::unique(users.begin(), users.end()), users.end());
    bool pinned_users = std::any_of(users.begin(), users.end(), [&](NodeId u) { return g.op(u) != Op::Region; });
    NodeId region = kNone;
    if (pinned_users) {
      Node r;
      r.op = Op::Region;
      r.control = {j};
      r.loc = g.node(proj).loc;
      region = g.add(std::move(r));
    }
    for (NodeId u : users) {
      const Node& nd = g.node(u);
      for (size_t i = 0; i < nd.control.size(); ++i) {
        if (nd.control[i] != proj) continue;
        if (g.op(u) != Op::Region) {
          g.set_control(u, i, region);
        } else if (!pinned_users) {
          g.set_control(u, i, j);
        } else {
          Node onward;
          onward.op = Op::Jump;
          onward.control = {region};
          onward.loc = nd.loc;
          g.set_control(u, i, g.add(std::move(onward)));
        }
      }
    }
    g.kill(proj);
  }
  NodeId cond = g.node(branch).inputs[0];
  g.kill(branch);
  g.kill_if_unused(cond);
}

}  // namespace

bool is_effect(OpId op) {
  return op == Op::Store || op == Op::StoreV || op == Op::LoadV || op == Op::Copy || op == Op::Call ||
         op == Op::VaStart || op == Op::VaArg || op == Op::Alloca || op == Op::StackSave || op == Op::StackRestore ||
         op == Op::Asm || op == Op::F80Arith || op == Op::F80Unary || op == Op::F80From || op == Op::V128Op ||
         op == Op::V128Store || is_atomic(op);
}

// An asm whose results nobody reads goes when nothing but its outputs can
// be its effect: not volatile, no "memory" clobber, no memory operand (gcc:
// a non-volatile asm is assumed to have no side effects besides its
// outputs). Its memory state's users read its memory input instead.
bool removable_asm(const Graph& g, NodeId n) {
  const Node& nd = g.node(n);
  if (nd.op != Op::Asm || asm_is_volatile(nd) || asm_clobbers_memory(nd)) return false;
  for (const AsmOperand& op : asm_operands(nd))
    if (op.cls == 'm') return false;
  for (NodeId u : g.users(n))
    if (g.op(u) != Op::Proj || (g.node(u).literals[0].as_int() != 0 && !g.users(u).empty())) return false;
  return true;
}

size_t remove_unused_asms(Graph& g) {
  size_t changes = 0;
  for (NodeId n = 0; n < g.size(); ++n) {
    if (!g.alive(n) || !removable_asm(g, n)) continue;
    std::vector<NodeId> projs(g.users(n).begin(), g.users(n).end());
    for (NodeId p : projs) {
      if (g.node(p).literals[0].as_int() == 0) g.replace_uses(p, g.node(n).inputs[0]);
      g.kill(p);
    }
    g.kill(n);
    ++changes;
  }
  return changes;
}

bool must_run(const Graph& g, NodeId n) {
  return is_effect(g.op(n)) || (eval_class(g.op(n)) == EvalClass::Divide && division_may_trap(g, n));
}

bool division_may_trap(const Graph& g, NodeId n) {
  NodeId divisor = g.node(n).inputs[1];
  if (!g.is_const(divisor)) return true;
  uint64_t v = g.const_value_of(divisor);
  unsigned bits = type_bits(g.const_type(divisor));
  if (v == 0) return true;
  bool is_signed = g.op(n) == Op::SDiv || g.op(n) == Op::SRem;
  return is_signed && v == width_mask(bits);
}

// Debug binding positions in the dead side of a branch on a constant (step
// 4; issue 20, "lost from here"): that code may have run in the program
// (exit-values deletes a loop by deciding its test), but only before the
// branch's surviving side begins, whatever paths lead from the dead side
// back to the branch. So each position in a block only that dead side
// reaches is retired to the surviving side: its bindings become kills
// there (in force before the side's own bindings, which fold_branch moves
// to the end of the branch's block with it), and the variable is unknown
// from there until its next binding, instead of being lost in the whole
// function. A block the dead sides of two such branches reach, or one no
// such side reaches (unreachable before), keeps its positions: lost.
void retire_dead_sides(Graph& g, const SonCfg& cfg, const std::vector<uint8_t>& live_block) {
  if (g.function().debug.binds.empty()) return;
  constexpr NodeId kConflict = kNone - 1;
  std::vector<NodeId> owner(cfg.blocks.size(), kNone);  // dead block -> surviving proj
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    NodeId t = cfg.terminator[b];
    if (!live_block[b] || t == kNone || g.op(t) != Op::If) continue;
    std::optional<bool> taken = constant_condition(g, t);
    if (!taken) continue;
    NodeId stays = g.proj(t, *taken ? 0 : 1), goes = g.proj(t, *taken ? 1 : 0);
    if (stays == kNone || goes == kNone || cfg.block_of[goes] == DomTree::kNone) continue;
    std::vector<uint32_t> stack = {cfg.block_of[goes]};
    std::vector<uint8_t> seen(cfg.blocks.size(), 0);
    while (!stack.empty()) {
      uint32_t d = stack.back();
      stack.pop_back();
      if (live_block[d] || seen[d]) continue;
      seen[d] = 1;
      owner[d] = owner[d] == kNone || owner[d] == stays ? stays : kConflict;
      for (uint32_t s : cfg.graph.succs[d]) stack.push_back(s);
    }
  }
  for (uint32_t d = 0; d < cfg.blocks.size(); ++d)
    if (owner[d] != kNone && owner[d] != kConflict) g.retire_position(cfg.blocks[d], owner[d]);
  for (NodeId n = 0; n < g.size(); ++n) {
    if (!g.alive(n) || cfg.block_of[n] != DomTree::kNone) continue;
    // A pinned node's block, or (a call's memory proj) its tuple's.
    NodeId anchor = g.op(n) == Op::Proj && !g.node(n).inputs.empty() ? g.node(n).inputs[0] : n;
    if (g.node(anchor).control.empty()) continue;
    uint32_t d = cfg.block_of_node(g, anchor);
    if (d != DomTree::kNone && owner[d] != kNone && owner[d] != kConflict) g.retire_position(n, owner[d]);
  }
}

size_t sweep_dead(Graph& g, const SonCfg* blocks) {
  size_t changes = remove_unused_asms(g);
  {
    std::shared_ptr<const SonCfg> built;
    if (!blocks) built = g.son_cfg();
    const SonCfg& cfg = blocks ? *blocks : *built;
    std::vector<uint8_t> live_block = reachable_blocks(g, cfg);
    retire_dead_sides(g, cfg, live_block);
    changes += prune_dead_edges(g, cfg, live_block);
    std::vector<uint8_t> live = mark_live(g, cfg, live_block);
    changes += sweep(g, live);
  }
  std::vector<NodeId> branches;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::If && constant_condition(g, n)) branches.push_back(n);
  for (NodeId b : branches) fold_branch(g, b);
  return changes + branches.size();
}

size_t dce(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  size_t changes = sweep_dead(g);
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
