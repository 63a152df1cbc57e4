// load_fusion.cpp - when a load may become the memory operand of its user
// (the *-load rules of rules.cpp: `addsd xmm, [p]`, `add r, [p]`, ...).
//
// The fused instruction (x64:fadd.m and its kin, FORMAT.md section 8,
// "Memory operands") replaces both the load and its user. It is pinned
// where the load was, to the load's control and memory state, so as a
// memory access it is exactly the load: son2cfg keeps it in that block and
// before every node that overwrites that memory state (schedule_late's and
// local_schedule's anti-dependences for memory readers), which the input
// graph already allowed for the load. What changes is that the user's
// computation moves up to the load: its other operand must be available
// there, before the memory the load read is overwritten. That holds when
//  - the load has exactly one use (this one), so no access is duplicated
//    or dropped, and it is an ordinary `load` (not volatile);
//  - the other operand x is available in the load's block: every pinned
//    node x depends on (through floating nodes) is either in a block that
//    strictly dominates the load's (control nodes' dominator tree, built
//    here once per function: start, regions, ifs, their projs and jumps),
//    or in the load's own block and unable to depend on memory newer than
//    the load's: a phi of that block, a parameter, a load of the same
//    memory state (a load is ordered before the overwriters of its memory,
//    so it and the fused instruction both come before them), or a pinned
//    node that neither reads nor writes memory (a division that may trap)
//    whose operands are available in turn. Anything else in that block (a
//    call, a store, a volatile access, another memory state) refuses the
//    fusion. Constants are available everywhere.
// A floating user could have sunk below the load into a branch or out of
// the way of register pressure; pinned, it now executes where the load
// does, which is where gcc and LLVM put a folded load too.
//
// A compare (x64:cmp.m, cmpi.m, ucomis.m) is fused only when its flags go
// to a branch: flags live from their producer to their one user in the
// same block with nothing between (FORMAT.md section 8, rule I), and the
// branch ends the block, so son2cfg glues the compare to it as the
// block's last instruction. Hence, besides the above, the load must be in
// the branch's block (same control) and nothing pinned there may overwrite
// the memory state the load read (a store or call after the load would
// have to come after the compare too, and so after the jump). A setcc or
// cmov user floats, and could be placed in another block than the load:
// those compares keep their load.
//
// The search through x's operands is bounded (kBudget nodes); past it the
// answer is no. The control dominator tree is Cooper-Harvey-Kennedy
// (common/ir/dominance.h), linear in practice.
#include <unordered_map>

#include "ir/dominance.h"
#include "lowerer.h"

namespace pl::lower {

namespace {

constexpr unsigned kBudget = 64;

bool is_control_vertex(const Function& fn, NodeId id) {
  const Node& n = fn.nodes[id];
  if (n.op == Start || n.op == Region || n.op == If || n.op == Jump) return true;
  return n.op == Proj && !n.inputs.empty() && n.inputs[0] < fn.nodes.size() && fn.nodes[n.inputs[0]].op == If;
}

}  // namespace

void Lowerer::build_control_dominators() {
  const size_t n = in_.nodes.size();
  control_vertex_.assign(n, DomTree::kNone);
  std::vector<NodeId> vertices;
  for (NodeId id = 0; id < n; ++id)
    if (in_.nodes[id].op == Start) {
      control_vertex_[id] = 0;
      vertices.push_back(id);
      break;
    }
  for (NodeId id = 0; id < n; ++id)
    if (control_vertex_[id] == DomTree::kNone && is_control_vertex(in_, id)) {
      control_vertex_[id] = static_cast<uint32_t>(vertices.size());
      vertices.push_back(id);
    }
  BlockGraph g;
  g.succs.resize(vertices.size());
  g.preds.resize(vertices.size());
  auto edge = [&](NodeId from, uint32_t to) {
    if (from >= n || control_vertex_[from] == DomTree::kNone) return;
    g.succs[control_vertex_[from]].push_back(to);
    g.preds[to].push_back(control_vertex_[from]);
  };
  for (uint32_t v = 0; v < vertices.size(); ++v) {
    const Node& nd = in_.nodes[vertices[v]];
    if (nd.op == Proj)
      edge(nd.inputs[0], v);
    else
      for (NodeId c : nd.control) edge(c, v);
  }
  control_dom_ = compute_dom_tree(g, false);
  control_dom_built_ = true;
}

bool Lowerer::control_strictly_dominates(NodeId a, NodeId b) {
  if (a == b) return false;
  if (!control_dom_built_) build_control_dominators();
  if (a >= control_vertex_.size() || b >= control_vertex_.size()) return false;
  uint32_t va = control_vertex_[a], vb = control_vertex_[b];
  if (va == DomTree::kNone || vb == DomTree::kNone || !control_dom_.reachable(va) || !control_dom_.reachable(vb))
    return false;
  return control_dom_.dominates(va, vb);
}

// Is the old value v computable in the block of control `ctl` before the
// memory state `mem` is overwritten there? (the header comment)
bool Lowerer::available_at(NodeId v, NodeId ctl, NodeId mem, std::unordered_map<NodeId, bool>& memo,
                           unsigned& budget) {
  if (constant(v)) return true;
  if (auto it = memo.find(v); it != memo.end()) return it->second;
  if (budget == 0) return false;
  --budget;
  memo[v] = false;  // a cycle (through a phi) is cut where the phi is decided
  const Node& nd = node(v);
  const OpInfo& info = op_info(nd.op);
  bool ok;
  if (!nd.control.empty()) {
    NodeId c = nd.control[0];
    if (c != ctl) {
      ok = control_strictly_dominates(c, ctl);
    } else if (nd.op == Phi || nd.op == Param || (nd.op == Load && nd.inputs[0] == mem)) {
      ok = true;
    } else if (info.inputs.find('m') == std::string_view::npos && info.results.find('m') == std::string_view::npos) {
      // A pinned node that neither reads nor writes memory (a division that
      // may trap): available when its operands are.
      ok = true;
      for (NodeId in : nd.inputs)
        if (!available_at(in, ctl, mem, memo, budget)) {
          ok = false;
          break;
        }
    } else {
      ok = false;
    }
  } else if (info.inputs.find('m') != std::string_view::npos || nd.op == Const || nd.op == FConst) {
    ok = nd.op == Const || nd.op == FConst;  // a floating memory reader is refused
  } else {
    ok = true;
    for (NodeId in : nd.inputs)
      if (!available_at(in, ctl, mem, memo, budget)) {
        ok = false;
        break;
      }
  }
  memo[v] = ok;
  return ok;
}

bool Lowerer::load_fusable(NodeId ld, NodeId other) {
  const Node& lnode = node(ld);
  if (!fold_loads_ || lnode.op != Load || uses(ld) != 1 || lnode.control.empty() || other == ld) return false;
  if (other == kNone) return true;  // a one-operand user (sqrtsd [p], cvtsi2sd [p])
  std::unordered_map<NodeId, bool> memo;
  unsigned budget = kBudget;
  return available_at(other, lnode.control[0], lnode.inputs[0], memo, budget);
}

void Lowerer::build_overwrites() {
  for (const Node& nd : in_.nodes) {
    const OpInfo& info = op_info(nd.op);
    if (nd.op == Phi || info.results.find('m') == std::string_view::npos) continue;
    for (size_t k = 0; k < nd.inputs.size(); ++k) {
      if (shape_letter(info.inputs, k) != 'm') continue;
      if (nd.control.empty())
        overwritten_anywhere_.insert(nd.inputs[k]);
      else
        overwritten_in_.insert(uint64_t{nd.inputs[k]} << 32 | nd.control[0]);
    }
  }
  overwrites_built_ = true;
}

bool Lowerer::load_fusable_at_branch(NodeId ld, NodeId other, NodeId br) {
  const Node& lnode = node(ld);
  const Node& bnode = node(br);
  if (lnode.op != Load || lnode.control.empty() || bnode.control.empty() || lnode.control[0] != bnode.control[0])
    return false;
  if (!load_fusable(ld, other)) return false;
  if (!overwrites_built_) build_overwrites();
  NodeId mem = lnode.inputs[0];
  return !overwritten_anywhere_.count(mem) && !overwritten_in_.count(uint64_t{mem} << 32 | lnode.control[0]);
}

}  // namespace pl::lower
