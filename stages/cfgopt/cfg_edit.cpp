// cfg_edit.cpp - the editable cfg-x64 function (see cfg_edit.h).
#include "cfg_edit.h"

#include <algorithm>
#include <stdexcept>

#include "ir/dominance.h"

namespace pl::cfgopt {

CfgEdit::CfgEdit(Function& fn)
    : fn_(fn),
      block_of_node_(fn.nodes.size(), kNoBlock),
      placed_in_(fn.nodes.size(), kNoBlock),
      dead_(fn.nodes.size(), false),
      dead_block_(fn.cfg->blocks.size(), false) {
  for (uint32_t b = 0; b < num_blocks(); ++b) {
    block_of_node_[block(b).node] = b;
    placed_in_[block(b).node] = b;
    for (NodeId n : block(b).nodes) placed_in_[n] = b;
  }
}

std::vector<NodeId> CfgEdit::phis(uint32_t b) const {
  std::vector<NodeId> out;
  for (NodeId n : block(b).nodes) {
    if (op(n) != Op::Phi) break;
    out.push_back(n);
  }
  return out;
}

std::vector<uint32_t> CfgEdit::preds(uint32_t b) const {
  std::vector<uint32_t> out;
  for (NodeId c : node(block(b).node).control) out.push_back(placed_in_[c]);
  return out;
}

size_t CfgEdit::edge_position(uint32_t from, uint32_t b) const {
  const ControlList& control = node(block(b).node).control;
  NodeId term = terminator(from);
  for (size_t i = 0; i < control.size(); ++i)
    if (control[i] == term) return i;
  throw std::logic_error("cfgopt: block " + std::to_string(from) + " is not a predecessor of block " +
                         std::to_string(b));
}

NodeId CfgEdit::add(Node n) {
  NodeId id = static_cast<NodeId>(fn_.nodes.size());
  fn_.nodes.push_back(std::move(n));
  block_of_node_.push_back(kNoBlock);
  placed_in_.push_back(kNoBlock);
  dead_.push_back(false);
  return id;
}

void CfgEdit::replace_uses(NodeId old, NodeId with) {
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    if (dead_[n]) continue;
    for (NodeId& in : fn_.nodes[n].inputs)
      if (in == old) in = with;
  }
}

void CfgEdit::place(NodeId n, uint32_t b, size_t pos) {
  std::vector<NodeId>& nodes = block(b).nodes;
  nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(pos), n);
  placed_in_[n] = b;
}

void CfgEdit::remove_from_block(NodeId n) {
  std::vector<NodeId>& nodes = block(placed_in_[n]).nodes;
  nodes.erase(std::find(nodes.begin(), nodes.end(), n));
  placed_in_[n] = kNoBlock;
}

std::vector<uint32_t> CfgEdit::use_counts() const {
  std::vector<uint32_t> count(fn_.nodes.size(), 0);
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    if (dead_[n]) continue;
    for (NodeId in : fn_.nodes[n].inputs) ++count[in];
  }
  return count;
}

bool CfgEdit::can_redirect(uint32_t from) const {
  const std::vector<NodeId>& s = block(from).successors;
  return !(s.size() == 2 && s[0] == s[1]);
}

namespace {

template <typename List>
void erase_at(List& list, size_t position) {
  for (size_t i = position; i + 1 < list.size(); ++i) list[i] = list[i + 1];
  list.resize(list.size() - 1);
}

}  // namespace

void CfgEdit::drop_edge(uint32_t to, size_t position) {
  erase_at(node(block(to).node).control, position);
  for (NodeId phi : phis(to)) erase_at(node(phi).inputs, position);
}

void CfgEdit::redirect(uint32_t from, size_t index, uint32_t to, std::span<const NodeId> phi_values) {
  if (!can_redirect(from)) throw std::logic_error("cfgopt: redirect from a block with two equal successors");
  uint32_t old = succ(from, index);
  kill_bindings_bypassed(from, old);
  drop_edge(old, edge_position(from, old));
  NodeId term = terminator(from);
  node(block(to).node).control.push_back(term);
  std::vector<NodeId> to_phis = phis(to);
  if (to_phis.size() != phi_values.size()) throw std::logic_error("cfgopt: redirect with the wrong phi values");
  for (size_t i = 0; i < to_phis.size(); ++i) node(to_phis[i]).inputs.push_back(phi_values[i]);
  block(from).successors[index] = block(to).node;
}

// A redirected edge from block `from` skips block b: a debug binding at b's
// start that is not its phi's (an assignment whose value is computed
// elsewhere) would not take effect on that path. The loss begins at the
// end of `from` (issue 20, "lost from here"), and the assignment it skips
// lies between there and b's successor, before any binding that follows:
// so its variable gets a kill at the end of `from` (its last memory state,
// else its start; after the bindings there), unknown from there on every
// path out of `from` until its next binding, instead of being lost in the
// whole function; if b dies (every edge into it redirected), its bindings
// go (finish). A phi's binding may be skipped: on the new edge the
// variable keeps the binding the phi's input had.
void CfgEdit::kill_bindings_bypassed(uint32_t from, uint32_t b) {
  FunctionDebug& d = fn_.debug;
  if (d.binds.empty()) return;
  const NodeId head = block(b).node;
  std::vector<char> lose(d.vars.size(), 0);
  bool any = false;
  for (const DebugBind& bind : d.binds) {
    if (bind.pos != head || bind.var >= lose.size()) continue;
    const bool phi = bind.value < fn_.nodes.size() && node(bind.value).op == Op::Phi && !node(bind.value).control.empty() &&
                     node(bind.value).control[0] == head;
    if (!phi) lose[bind.var] = 1, any = true;
  }
  if (!any) return;
  bypassed_heads_.push_back(head);
  NodeId end = block(from).node;
  for (NodeId n : block(from).nodes)
    if (alive(n) && makes_memory(fn_, n)) end = n;
  for (uint32_t v = 0; v < lose.size(); ++v)
    if (lose[v]) add_debug_binding(d, DebugBind{v, kNoSlot, end, false});
}

void CfgEdit::append_block(uint32_t into, uint32_t from) {
  NodeId head = block(into).node;
  if (!fn_.debug.binds.empty()) {
    NodeId end = head;
    for (NodeId n : block(into).nodes)
      if (alive(n) && makes_memory(fn_, n)) end = n;
    moved_positions_.emplace_back(block(from).node, end);
  }
  for (NodeId n : block(from).nodes) {
    Node& moved = node(n);
    for (NodeId& c : moved.control)
      if (c == block(from).node) c = head;
    block(into).nodes.push_back(n);
    placed_in_[n] = into;
  }
  block(into).successors = block(from).successors;
  block(from).nodes.clear();
  block(from).successors.clear();
  dead_block_[from] = true;
  kill(block(from).node);
}

size_t CfgEdit::finish() {
  size_t removed = 0;
  // 1. Blocks unreachable from block 0 go, with their outgoing edges.
  std::vector<bool> reached(num_blocks(), false);
  std::vector<uint32_t> stack = {0};
  reached[0] = true;
  while (!stack.empty()) {
    uint32_t b = stack.back();
    stack.pop_back();
    for (size_t i = 0; i < num_succs(b); ++i) {
      uint32_t s = succ(b, i);
      if (!reached[s]) {
        reached[s] = true;
        stack.push_back(s);
      }
    }
  }
  for (uint32_t b = 0; b < num_blocks(); ++b) {
    if (reached[b] || dead_block_[b]) continue;
    for (size_t i = 0; i < num_succs(b); ++i) {
      uint32_t s = succ(b, i);
      if (!reached[s]) continue;
      const ControlList& control = node(block(s).node).control;
      for (size_t pos = control.size(); pos-- > 0;)
        if (control[pos] == terminator(b)) drop_edge(s, pos);
    }
    dead_block_[b] = true;
    kill(block(b).node);
    for (NodeId n : block(b).nodes) {
      removed += alive(n);
      kill(n);
    }
  }
  // 2. Phis and pure nodes nobody uses (a worklist over use counts).
  std::vector<uint32_t> uses = use_counts();
  std::vector<NodeId> work;
  auto removable = [&](NodeId n) {
    OpId o = op(n);
    return alive(n) && uses[n] == 0 && o < kNumOps && (o == Op::Phi || op_info(o).has(PURE));
  };
  for (NodeId n = 0; n < fn_.nodes.size(); ++n)
    if (removable(n)) work.push_back(n);
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    if (!removable(n)) continue;
    kill(n);
    ++removed;
    for (NodeId in : node(n).inputs)
      if (--uses[in] == 0 && removable(in)) work.push_back(in);
  }
  // 3. Renumber the survivors in their old order.
  std::vector<NodeId> map(fn_.nodes.size(), ~NodeId{0});
  std::vector<Node> nodes;
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    if (dead_[n]) continue;
    map[n] = static_cast<NodeId>(nodes.size());
    nodes.push_back(std::move(fn_.nodes[n]));
  }
  for (Node& n : nodes) {
    for (NodeId& c : n.control) c = map[c];
    for (NodeId& in : n.inputs) in = map[in];
  }
  std::vector<Block> blocks;
  for (uint32_t b = 0; b < num_blocks(); ++b) {
    if (dead_block_[b]) continue;
    Block out;
    out.node = map[block(b).node];
    for (NodeId s : block(b).successors) out.successors.push_back(map[s]);
    for (NodeId n : block(b).nodes)
      if (!dead_[n]) out.nodes.push_back(map[n]);
    blocks.push_back(std::move(out));
  }
  fn_.nodes = std::move(nodes);
  // Positions at the blocks append_block took in (chains: a block taken
  // into one that was taken in turn).
  for (size_t round = 0; round <= moved_positions_.size(); ++round) {
    bool changed = false;
    for (auto [from, to] : moved_positions_)
      for (DebugBind& b : fn_.debug.binds)
        if (b.pos == from) b.pos = to, changed = true;
    if (!changed) break;
  }
  // A block every edge into which was redirected dies: its bindings were
  // skipped on every path, each of which got a kill (kill_bindings_bypassed),
  // so they go instead of becoming lost.
  if (!bypassed_heads_.empty()) {
    std::erase_if(fn_.debug.binds, [&](const DebugBind& b) {
      return b.pos < dead_.size() && dead_[b.pos] &&
             std::find(bypassed_heads_.begin(), bypassed_heads_.end(), b.pos) != bypassed_heads_.end();
    });
  }
  remap_debug_slots(fn_.debug, map, ~NodeId{0});
  fn_.cfg->blocks = std::move(blocks);
  // 4. The dominance section.
  BlockGraph g;
  size_t n = fn_.cfg->blocks.size();
  g.succs.resize(n);
  g.preds.resize(n);
  std::vector<uint32_t> index(fn_.nodes.size(), kNoBlock);
  for (uint32_t b = 0; b < n; ++b) index[fn_.cfg->blocks[b].node] = b;
  for (uint32_t b = 0; b < n; ++b)
    for (NodeId s : fn_.cfg->blocks[b].successors) {
      g.succs[b].push_back(index[s]);
      g.preds[index[s]].push_back(b);
    }
  fn_.dominance = dominance_section(fn_, compute_dom_tree(g));
  return removed;
}

}  // namespace pl::cfgopt
