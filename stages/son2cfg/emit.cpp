// emit.cpp - emit_function: the scheduled function at the cfg level.
//
//  - Nodes keep their relative order, the copies schedule_late made right
//    after their original; the ones that do not exist at the cfg
//    level are dropped and the rest renumbered densely: an if's projs that
//    regions list (the region lists the if instead, so an if whose two
//    projs reach one region is listed twice, true edge first), and Dead
//    nodes (unreachable code). ssa2son appended its projs after every other
//    node, so `ssa2son | son2cfg` gives back the ssa ids.
//  - Debug value bindings follow the renumbering (value and position; a
//    position at an if's proj that a region lists directly, an edge with no
//    block of its own here, goes: the binding is lost). A copy of a bound
//    node gets no binding: the binding's position says where the variable
//    takes the value, and a second binding there would replace the first
//    (DebugBind); where only a copy holds the value, the variable is
//    "optimized out".
//  - An if's proj that pinned nodes hang off becomes `region ^if` in place.
//    If a region also lists it (the block flows straight on), a `jump` is
//    appended after every other node and ends the block.
//  - A region's control inputs from unreachable code are dropped, with the
//    matching phi inputs.
//  - At `ssa`, phi and undefined become ssa:phi and ssa:undefined; at
//    `cfg-x64` every opcode stays.
//  - cfg.blocks in the layout order (block_order.cpp); each block's
//    successors in its terminator's order (true first); its nodes in the
//    local schedule. The dominance section comes from the same dominator
//    tree the scheduler used (frontiers in layout order).
#include <algorithm>
#include <unordered_map>

#include "son2cfg.h"

namespace pl::son2cfg {

namespace {

class Emitter {
 public:
  Emitter(const Graph& g, const DomTree& dom) : g_(g), dom_(dom) {}

  Function run(const std::vector<uint32_t>& layout, const std::vector<std::vector<NodeId>>& schedule);

 private:
  uint32_t edge_block(NodeId edge) const {
    return g_.role[edge] == Role::ControlProj ? g_.block[g_.node(edge).inputs[0]] : g_.block[edge];
  }
  void number_nodes();
  Node rewrite(NodeId id) const;
  OpId renamed(OpId op) const;

  const Graph& g_;
  const DomTree& dom_;
  std::vector<NodeId> new_id_;
  std::vector<NodeId> jump_of_;  // block -> the jump emit adds, or kNone
  NodeId count_ = 0;
};

void Emitter::number_nodes() {
  const size_t n = g_.fn.nodes.size();
  new_id_.assign(n, kNone);
  std::vector<std::pair<NodeId, NodeId>> copies = g_.copies;
  std::stable_sort(copies.begin(), copies.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t next = 0;
  for (NodeId id = 0; id < n - copies.size(); ++id) {
    if (g_.role[id] != Role::Dead && g_.role[id] != Role::ControlProj) new_id_[id] = count_++;
    for (; next < copies.size() && copies[next].first == id; ++next) new_id_[copies[next].second] = count_++;
  }
  jump_of_.assign(g_.flow.head.size(), kNone);
  for (uint32_t b = 0; b < g_.flow.head.size(); ++b)
    if (g_.flow.terminator[b] == kNone) jump_of_[b] = count_++;
}

OpId Emitter::renamed(OpId op) const {
  if (g_.out_level != Level::Ssa) return op;
  if (op == Op::Phi) return Op::SsaPhi;
  if (op == Op::Undef) return Op::SsaUndef;
  return op;
}

Node Emitter::rewrite(NodeId id) const {
  const Node& in = g_.node(id);
  Node out;
  out.loc = in.loc;
  if (g_.role[id] == Role::Head && in.op == Op::Proj) {  // a proj block becomes a region
    out.op = Op::Region;
    out.control = {new_id_[in.inputs[0]]};
    return out;
  }
  out.op = renamed(in.op);
  out.literals = in.literals;
  if (in.op == Op::Region) {
    for (NodeId c : in.control) {
      uint32_t from = edge_block(c);
      if (from == kNone) continue;
      if (g_.role[c] == Role::ControlProj) out.control.push_back(new_id_[g_.node(c).inputs[0]]);
      else if (g_.role[c] == Role::Head) out.control.push_back(jump_of_[from]);
      else out.control.push_back(new_id_[c]);
    }
    return out;
  }
  for (NodeId c : in.control) out.control.push_back(new_id_[c]);
  for (uint32_t s = 0; s < in.inputs.size(); ++s) {
    if (g_.role[id] == Role::Phi && g_.phi_pred(id, s) == kNone) continue;
    out.inputs.push_back(new_id_[in.inputs[s]]);
  }
  return out;
}

Function Emitter::run(const std::vector<uint32_t>& layout, const std::vector<std::vector<NodeId>>& schedule) {
  number_nodes();
  const Function& in = g_.fn;
  Function out;
  out.name = in.name;
  out.linkage = in.linkage;
  out.signature = in.signature;
  out.attrs = in.attrs;
  out.debug = in.debug;
  remap_debug_slots(out.debug, new_id_, kNone);
  out.nodes.resize(count_);
  for (NodeId id = 0; id < in.nodes.size(); ++id)
    if (new_id_[id] != kNone) out.nodes[new_id_[id]] = rewrite(id);
  for (uint32_t b = 0; b < jump_of_.size(); ++b) {
    if (jump_of_[b] == kNone) continue;
    Node& jump = out.nodes[jump_of_[b]];
    jump.op = Op::Jump;
    jump.control = {new_id_[g_.flow.head[b]]};
    jump.loc = g_.node(g_.flow.head[b]).loc;
  }
  std::vector<uint32_t> position(layout.size());
  for (uint32_t i = 0; i < layout.size(); ++i) position[layout[i]] = i;
  auto head_id = [&](uint32_t b) { return new_id_[g_.flow.head[b]]; };
  out.cfg.emplace();
  out.dominance.emplace();
  out.cfg->blocks.reserve(layout.size());
  out.dominance->blocks.reserve(layout.size());
  for (uint32_t b : layout) {
    Block block;
    block.node = head_id(b);
    block.successors.reserve(g_.flow.graph.succs[b].size());
    for (uint32_t s : g_.flow.graph.succs[b]) block.successors.push_back(head_id(s));
    block.nodes.reserve(schedule[b].size() + 1);
    for (NodeId id : schedule[b]) block.nodes.push_back(new_id_[id]);
    if (jump_of_[b] != kNone) block.nodes.push_back(jump_of_[b]);
    out.cfg->blocks.push_back(std::move(block));
    DomBlock dom;
    dom.node = head_id(b);
    if (dom_.idom[b] != DomTree::kNone) dom.parent = head_id(dom_.idom[b]);
    std::vector<uint32_t> frontier = dom_.frontier[b];
    std::sort(frontier.begin(), frontier.end(), [&](uint32_t x, uint32_t y) { return position[x] < position[y]; });
    for (uint32_t f : frontier) dom.frontier.push_back(head_id(f));
    out.dominance->blocks.push_back(std::move(dom));
  }
  return out;
}

}  // namespace

Function emit_function(const Graph& g, const DomTree& dom, const std::vector<uint32_t>& layout,
                       const std::vector<std::vector<NodeId>>& schedule) {
  return Emitter(g, dom).run(layout, schedule);
}

}  // namespace pl::son2cfg
