// edit.cpp - function edits for pipe-reduce (see reduce.h).
#include <algorithm>

#include "ir/dominance.h"
#include "reduce.h"

namespace pl::reduce {

namespace {

constexpr NodeId kGone = ~NodeId{0};

std::optional<std::string> string_literal(const Node& n, size_t i) {
  if (i >= n.literals.size() || n.literals[i].kind() != Literal::Kind::String) return std::nullopt;
  return std::string(n.literals[i].as_string());
}

bool is_phi(OpId op) { return op == Phi || op == SsaPhi; }

// Drops control input `index` of region `region`, and input `index` of its phis.
void drop_region_edge(Function& fn, NodeId region, size_t index) {
  Node& r = fn.nodes[region];
  r.control.erase(r.control.begin() + static_cast<std::ptrdiff_t>(index));
  for (Node& n : fn.nodes)
    if (is_phi(n.op) && n.control.size() == 1 && n.control[0] == region && index < n.inputs.size())
      n.inputs.erase(n.inputs.begin() + static_cast<std::ptrdiff_t>(index));
}

// Keeps the nodes marked in `keep`, renumbered in order. False if a kept node
// refers to a dropped one.
bool compact(Function& fn, const std::vector<bool>& keep) {
  std::vector<NodeId> map(fn.nodes.size(), kGone);
  NodeId next = 0;
  for (NodeId i = 0; i < fn.nodes.size(); ++i)
    if (keep[i]) map[i] = next++;
  std::vector<Node> nodes;
  nodes.reserve(next);
  for (NodeId i = 0; i < fn.nodes.size(); ++i) {
    if (!keep[i]) continue;
    Node n = std::move(fn.nodes[i]);
    for (NodeId& c : n.control)
      if ((c = map[c]) == kGone) return false;
    for (NodeId& x : n.inputs)
      if ((x = map[x]) == kGone) return false;
    nodes.push_back(std::move(n));
  }
  fn.nodes = std::move(nodes);
  if (fn.cfg) {
    std::vector<Block> blocks;
    for (Block& b : fn.cfg->blocks) {
      if (map[b.node] == kGone) continue;  // a removed block (its nodes went too)
      b.node = map[b.node];
      for (NodeId& s : b.successors)
        if ((s = map[s]) == kGone) return false;
      std::vector<NodeId> placed;
      for (NodeId n : b.nodes)
        if (map[n] != kGone) placed.push_back(map[n]);
      b.nodes = std::move(placed);
      blocks.push_back(std::move(b));
    }
    fn.cfg->blocks = std::move(blocks);
  }
  canonicalize_foreign_ops(fn);
  return true;
}

// cfg levels: blocks unreachable from block 0 go, with the edges they sent.
void remove_unreachable_blocks(Function& fn, std::vector<bool>& keep) {
  Cfg& cfg = *fn.cfg;
  std::vector<int> index(fn.nodes.size(), -1);
  for (size_t b = 0; b < cfg.blocks.size(); ++b) index[cfg.blocks[b].node] = static_cast<int>(b);
  std::vector<bool> reached(cfg.blocks.size(), false);
  std::vector<size_t> work{0};
  reached[0] = true;
  while (!work.empty()) {
    size_t b = work.back();
    work.pop_back();
    for (NodeId s : cfg.blocks[b].successors)
      if (index[s] >= 0 && !reached[static_cast<size_t>(index[s])]) {
        reached[static_cast<size_t>(index[s])] = true;
        work.push_back(static_cast<size_t>(index[s]));
      }
  }
  std::vector<bool> dead_term(fn.nodes.size(), false);
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    if (reached[b]) continue;
    keep[cfg.blocks[b].node] = false;
    for (NodeId n : cfg.blocks[b].nodes) {
      keep[n] = false;
      dead_term[n] = true;
    }
  }
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    if (!reached[b]) continue;
    NodeId region = cfg.blocks[b].node;
    for (size_t i = fn.nodes[region].control.size(); i-- > 0;)
      if (dead_term[fn.nodes[region].control[i]]) drop_region_edge(fn, region, i);
  }
}

// Sea of nodes: control nodes not reachable from `start` go, with their edges
// into live regions and the pinned nodes hanging off them.
void remove_unreachable_control(Function& fn, std::vector<bool>& keep) {
  std::vector<std::vector<NodeId>> users(fn.nodes.size());
  NodeId start = kGone;
  for (NodeId u = 0; u < fn.nodes.size(); ++u) {
    if (fn.nodes[u].op == Start) start = u;
    for (NodeId c : fn.nodes[u].control) users[c].push_back(u);
    if (fn.nodes[u].op == Proj && !fn.nodes[u].inputs.empty() && fn.nodes[fn.nodes[u].inputs[0]].op == If)
      users[fn.nodes[u].inputs[0]].push_back(u);
  }
  if (start == kGone) return;
  std::vector<bool> reached(fn.nodes.size(), false);
  std::vector<NodeId> work{start};
  reached[start] = true;
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (NodeId u : users[n])
      if (!reached[u]) {
        reached[u] = true;
        work.push_back(u);
      }
  }
  for (NodeId n = 0; n < fn.nodes.size(); ++n) {
    const Node& node = fn.nodes[n];
    bool control_node = node.op == Region || node.op == If || node.op == Jump || node.op == Return ||
                        (node.op == Proj && !node.inputs.empty() && fn.nodes[node.inputs[0]].op == If);
    bool pinned = !node.control.empty();
    if ((control_node || pinned) && !reached[n]) keep[n] = false;
  }
  for (NodeId r = 0; r < fn.nodes.size(); ++r) {
    if (fn.nodes[r].op != Region || !reached[r]) continue;
    for (size_t i = fn.nodes[r].control.size(); i-- > 0;)
      if (!reached[fn.nodes[r].control[i]]) drop_region_edge(fn, r, i);
  }
}

bool is_root(const Function& fn, NodeId n) {
  OpId op = fn.nodes[n].op;
  if (op >= kNumOps) return true;
  const OpInfo& info = op_info(op);
  if (info.has(BLOCK) || info.has(TERMINATOR) || op == SsaStore) return true;
  return op == Proj && !fn.nodes[n].inputs.empty() && fn.nodes[fn.nodes[n].inputs[0]].op == If;
}

}  // namespace

std::optional<std::string> value_type(const Function& fn, NodeId id) {
  const Node& n = fn.nodes[id];
  switch (n.op) {
    case Eq: case Ne: case SLt: case SLe: case ULt: case ULe: return "i32";
    case SExt: case ZExt: case Trunc: return string_literal(n, 1);
    case Const: case Add: case Sub: case Mul: case And: case Or: case Xor: case Shl: case LShr: case AShr:
    case SDiv: case UDiv: case SRem: case URem: case Neg: case Not: case Load: case Param:
      return string_literal(n, 0);
    case SymAddr: case TlsAddr: case StackSlot: return "ptr";
    case Proj: {
      if (n.inputs.empty() || n.literals.empty() || !n.literals[0].is_int() || n.literals[0].as_int() != 1)
        return std::nullopt;
      const Node& tuple = fn.nodes[n.inputs[0]];
      if (tuple.op != Call && tuple.op != LoadV) return std::nullopt;
      std::optional<std::string> t = string_literal(tuple, 0);
      if (t && *t == "void") return std::nullopt;
      return t;
    }
    default: return std::nullopt;
  }
}

void make_constant(Function& fn, NodeId id, const std::string& type) {
  Node& n = fn.nodes[id];
  n.op = Const;
  n.control.clear();
  n.inputs.clear();
  n.literals = {Literal::string(type), Literal::integer(0)};
}

void make_undefined(Function& fn, NodeId id, Level level) {
  Node& n = fn.nodes[id];
  n.op = level == Level::Ssa ? SsaUndef : Undef;
  n.control.clear();
  n.inputs.clear();
  n.literals.clear();
}

bool replace_uses(Function& fn, NodeId from, NodeId to) {
  bool any = false;
  for (NodeId u = 0; u < fn.nodes.size(); ++u) {
    if (u == to) continue;  // a node never becomes its own input
    for (NodeId& x : fn.nodes[u].inputs)
      if (x == from) {
        x = to;
        any = true;
      }
  }
  return any;
}

bool fold_branch(Function& fn, NodeId if_node, int keep) {
  Node& branch = fn.nodes[if_node];
  if (branch.op != If) return false;
  branch.op = Jump;
  branch.inputs.clear();
  if (fn.cfg) {
    for (Block& b : fn.cfg->blocks) {
      if (b.nodes.empty() || b.nodes.back() != if_node || b.successors.size() != 2) continue;
      NodeId kept = b.successors[static_cast<size_t>(keep)], dropped = b.successors[static_cast<size_t>(1 - keep)];
      b.successors = {kept};
      Node& region = fn.nodes[dropped];
      auto it = std::find(region.control.begin(), region.control.end(), if_node);
      if (it != region.control.end()) drop_region_edge(fn, dropped, static_cast<size_t>(it - region.control.begin()));
      return true;
    }
    return false;
  }
  // Sea of nodes: the kept proj becomes a region entered by the jump; the
  // other proj loses its edges and everything below it becomes unreachable.
  NodeId kept = kGone, dropped = kGone;
  for (NodeId u = 0; u < fn.nodes.size(); ++u) {
    const Node& n = fn.nodes[u];
    if (n.op != Proj || n.inputs.empty() || n.inputs[0] != if_node || n.literals.empty() || !n.literals[0].is_int())
      continue;
    (n.literals[0].as_int() == keep ? kept : dropped) = u;
  }
  if (kept == kGone) return false;
  // Regions that the kept proj enters directly take the jump instead; if
  // pinned nodes hang off the proj, it becomes a region entered by the jump.
  bool starts_block = false;
  for (Node& n : fn.nodes) {
    if (n.op == Region) {
      for (NodeId& c : n.control)
        if (c == kept) c = if_node;
    } else if (std::find(n.control.begin(), n.control.end(), kept) != n.control.end()) {
      starts_block = true;
    }
  }
  Node& k = fn.nodes[kept];
  k.inputs.clear();
  k.literals.clear();
  if (starts_block) {
    k.op = Region;
    k.control = {if_node};
  } else {
    k.op = Undef;  // unused now; removed with the dead nodes
  }
  if (dropped != kGone) {
    Node& d = fn.nodes[dropped];  // an orphan: unreachable from start now
    d.inputs.clear();
    d.op = Region;
    d.literals.clear();
    d.control = {dropped};
  }
  return true;
}

bool merge_block(Function& fn, NodeId region) {
  Node& r = fn.nodes[region];
  if (r.op != Region || r.control.size() != 1 || fn.nodes[r.control[0]].op != Jump) return false;
  NodeId jump = r.control[0];
  NodeId above = fn.nodes[jump].control[0];
  // Phis of a one-edge region are their input.
  for (NodeId n = 0; n < fn.nodes.size(); ++n)
    if (is_phi(fn.nodes[n].op) && fn.nodes[n].control.size() == 1 && fn.nodes[n].control[0] == region)
      replace_uses(fn, n, fn.nodes[n].inputs.empty() ? n : fn.nodes[n].inputs[0]);
  std::vector<bool> keep(fn.nodes.size(), true);
  keep[region] = keep[jump] = false;
  for (NodeId n = 0; n < fn.nodes.size(); ++n) {
    Node& node = fn.nodes[n];
    if (is_phi(node.op) && node.control.size() == 1 && node.control[0] == region) keep[n] = false;
    else
      for (NodeId& c : node.control)
        if (c == region) c = above;
  }
  if (fn.cfg) {
    // The block joins its predecessor: its nodes follow the predecessor's
    // (whose jump goes), and its successors become the predecessor's.
    Cfg& cfg = *fn.cfg;
    auto pred = std::find_if(cfg.blocks.begin(), cfg.blocks.end(),
                             [&](const Block& b) { return !b.nodes.empty() && b.nodes.back() == jump; });
    auto self = std::find_if(cfg.blocks.begin(), cfg.blocks.end(), [&](const Block& b) { return b.node == region; });
    if (pred == cfg.blocks.end() || self == cfg.blocks.end() || pred == self) return false;
    pred->nodes.pop_back();
    for (NodeId n : self->nodes)
      if (keep[n]) pred->nodes.push_back(n);
    pred->successors = self->successors;
    self->nodes.clear();
  }
  return remove_nodes(fn, keep);
}

bool remove_dead(Function& fn, bool unused_too) {
  std::vector<bool> keep(fn.nodes.size(), true);
  if (fn.cfg) remove_unreachable_blocks(fn, keep);
  else remove_unreachable_control(fn, keep);
  // Backwards from the roots that survive (every surviving node is a root
  // unless unused nodes go too).
  std::vector<bool> live(fn.nodes.size(), false);
  std::vector<NodeId> work;
  for (NodeId n = 0; n < fn.nodes.size(); ++n)
    if (keep[n] && (!unused_too || is_root(fn, n))) {
      live[n] = true;
      work.push_back(n);
    }
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    auto visit = [&](NodeId x) {
      if (!live[x]) {
        live[x] = true;
        work.push_back(x);
      }
    };
    for (NodeId c : fn.nodes[n].control) visit(c);
    for (NodeId x : fn.nodes[n].inputs) visit(x);
  }
  for (NodeId n = 0; n < fn.nodes.size(); ++n) live[n] = live[n] && keep[n];
  return remove_nodes(fn, live);
}

bool remove_nodes(Function& fn, const std::vector<bool>& keep) {
  if (!compact(fn, keep)) return false;
  if (fn.dominance && fn.cfg) {
    BlockGraph g;
    size_t nb = fn.cfg->blocks.size();
    g.succs.assign(nb, {});
    g.preds.assign(nb, {});
    std::vector<int> index(fn.nodes.size(), -1);
    for (size_t b = 0; b < nb; ++b) index[fn.cfg->blocks[b].node] = static_cast<int>(b);
    for (size_t b = 0; b < nb; ++b)
      for (NodeId s : fn.cfg->blocks[b].successors) {
        g.succs[b].push_back(static_cast<uint32_t>(index[s]));
        g.preds[static_cast<size_t>(index[s])].push_back(static_cast<uint32_t>(b));
      }
    fn.dominance = dominance_section(fn, compute_dom_tree(g));
  }
  return true;
}

size_t node_count(const Function& fn) { return fn.nodes.size(); }

}  // namespace pl::reduce
