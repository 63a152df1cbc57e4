// flow.cpp - find_flow: the blocks of a sea of nodes and the edges between
// them, read from the control nodes.
//
// A block starts at `start`, at a `region`, or at an if's `proj` that pinned
// nodes hang off (sonopt may fold a one-input region away; the proj then
// becomes a region at the cfg level). A block ends with the one terminator
// hanging off its block node: a `jump` leads to the region that lists it, an
// `if` (any BRANCH opcode) to the targets of its proj 0 (true, first) and
// proj 1 (false), a `return` nowhere. An if's proj that a region lists
// directly is the edge itself (role ControlProj; at the cfg level the region
// lists the if). A proj block that a region also lists flows straight into
// that region: it has no terminator here, and emit adds a jump.
//
// Only blocks reachable from start are numbered (by a depth-first walk, so
// block 0 is start's); everything hanging off an unreachable block node is
// Dead, and so are the projs of unreachable ifs. A region's predecessors are
// listed in the order of its control inputs, the ones from unreachable code
// left out (their phi inputs are dropped by emit).
//
// Invariants needed: the reader's structural rules (ids in range). Every
// shape this file relies on is checked here, so that input that skipped the
// verifier (--no-verify) is reported, never indexed out of range: table
// opcodes only, one start, one control input on every pinned node and it a
// block node, a phi on a region with one input per control input, region
// control inputs that are jumps or if projs listed by one region only, one
// terminator per block, both projs of every if present, once each.
#include <algorithm>

#include "son2cfg.h"
#include "encoding/text_format.h"

namespace pl::son2cfg {

void Graph::fail(NodeId n, const std::string& message) const {
  throw FormatError(Where::in(fn.name, node_name(n)), message, print_node_line(fn, n));
}

uint32_t Graph::phi_pred(NodeId phi, uint32_t slot) const {
  NodeId edge = node(node(phi).control[0]).control[slot];
  // A jump is in its block; an if's proj stands for the if's block; a proj
  // block that flows into the region is its own predecessor.
  if (role[edge] == Role::ControlProj) return block[node(edge).inputs[0]];
  return block[edge];
}

namespace {

struct Finder {
  explicit Finder(Graph& graph) : g(graph), fn(graph.fn), n(fn.nodes.size()) {}

  Graph& g;
  const Function& fn;
  const size_t n;
  NodeId start = kNone;
  std::vector<NodeId> listed_by;      // control node -> the region that lists it
  std::vector<NodeId> proj_of[2];     // branch -> its proj 0 / proj 1
  std::vector<NodeId> terminator_of;  // block node -> its terminator
  std::vector<uint32_t> block_of_head;

  bool has(NodeId id, uint32_t flag) const { return op_info(fn.nodes[id].op).has(flag); }
  bool is_branch(NodeId id) const { return has(id, BRANCH); }

  void classify();
  void index_region_inputs();
  void index_branch_projs();
  void find_heads();
  void attach_pinned();
  std::vector<NodeId> successors(NodeId head) const;
  void number_blocks();
  void link_predecessors();
  void build_users();
};

void Finder::classify() {
  g.role.assign(n, Role::Floating);
  for (NodeId id = 0; id < n; ++id) {
    const Node& m = fn.nodes[id];
    if (m.op >= kNumOps) g.fail(id, "unknown opcode '" + std::string(fn.op_name(m.op)) + "'");
    const OpInfo& info = op_info(m.op);
    Role& r = g.role[id];
    if (info.has(BLOCK)) {
      r = Role::Head;
      if (m.op == Op::Start) {
        if (start != kNone) g.fail(id, "a second start (the first is " + node_name(start) + ")");
        if (!m.control.empty()) g.fail(id, "start has no control input");
        start = id;
      } else if (m.control.empty()) {
        g.fail(id, "a region needs at least one control input");
      }
      continue;
    }
    if (info.has(PROJ)) {
      if (m.inputs.size() != 1 || !m.control.empty()) g.fail(id, "a proj has one input and no control input");
      r = is_branch(m.inputs[0]) ? Role::ControlProj : Role::TupleProj;
      continue;
    }
    if (m.control.size() > 1) g.fail(id, "a pinned node has exactly one control input");
    if (info.has(TERMINATOR)) r = Role::Terminator;
    else if (info.has(PHI)) r = Role::Phi;
    else if (!m.control.empty()) r = Role::Pinned;
    if (r != Role::Floating && m.control.empty()) g.fail(id, "the node needs a control input");
  }
  if (start == kNone) throw FormatError(Where::in(fn.name, "graph"), "the function has no start node");
}

void Finder::index_region_inputs() {
  listed_by.assign(n, kNone);
  for (NodeId id = 0; id < n; ++id) {
    if (fn.nodes[id].op != Op::Region) continue;
    for (NodeId c : fn.nodes[id].control) {
      bool jump = g.role[c] == Role::Terminator && op_info(fn.nodes[c].op).results == "c";
      if (!jump && g.role[c] != Role::ControlProj)
        g.fail(id, "control input " + node_name(c) + " is neither a jump nor an if's proj");
      if (listed_by[c] != kNone)
        g.fail(id, "control input " + node_name(c) + " is already an input of " + node_name(listed_by[c]) +
                       " (a control edge leads to one block, once)");
      listed_by[c] = id;
    }
  }
}

void Finder::index_branch_projs() {
  proj_of[0].assign(n, kNone);
  proj_of[1].assign(n, kNone);
  for (NodeId id = 0; id < n; ++id) {
    if (g.role[id] != Role::ControlProj) continue;
    const Node& p = fn.nodes[id];
    if (p.literals.size() != 1 || !p.literals[0].is_int() || p.literals[0].bits() > 1)
      g.fail(id, "an if's proj selects result 0 (true) or 1 (false)");
    NodeId& slot = proj_of[p.literals[0].bits()][p.inputs[0]];
    if (slot != kNone) g.fail(id, "the if already has this proj (" + node_name(slot) + ")");
    slot = id;
  }
}

// An if's proj that pinned nodes hang off is a block node.
void Finder::find_heads() {
  for (NodeId id = 0; id < n; ++id) {
    Role r = g.role[id];
    if (r != Role::Terminator && r != Role::Phi && r != Role::Pinned) continue;
    NodeId c = fn.nodes[id].control[0];
    if (g.role[c] == Role::ControlProj) g.role[c] = Role::Head;
  }
}

void Finder::attach_pinned() {
  terminator_of.assign(n, kNone);
  for (NodeId id = 0; id < n; ++id) {
    Role r = g.role[id];
    if (r != Role::Terminator && r != Role::Phi && r != Role::Pinned) continue;
    const Node& m = fn.nodes[id];
    NodeId c = m.control[0];
    if (g.role[c] != Role::Head)
      g.fail(id, "control input " + node_name(c) + " is not a block node (start, region or an if's proj)");
    if (r == Role::Phi) {
      if (fn.nodes[c].op != Op::Region) g.fail(id, "a phi's control input is a region");
      if (m.inputs.size() != fn.nodes[c].control.size())
        g.fail(id, "the phi has " + std::to_string(m.inputs.size()) + " inputs but its region " + node_name(c) +
                       " has " + std::to_string(fn.nodes[c].control.size()) + " control inputs");
    }
    if (r == Role::Terminator) {
      if (terminator_of[c] != kNone)
        g.fail(id, "the block of " + node_name(c) + " already ends with " + node_name(terminator_of[c]));
      terminator_of[c] = id;
    }
  }
}

std::vector<NodeId> Finder::successors(NodeId head) const {
  NodeId t = terminator_of[head];
  bool flows_on = fn.nodes[head].op == Op::Proj && listed_by[head] != kNone;
  if (t == kNone) {
    if (flows_on) return {listed_by[head]};
    g.fail(head, "the block has no terminator");
  }
  if (flows_on)
    g.fail(head, "the block ends with " + node_name(t) + " but also flows into " + node_name(listed_by[head]));
  if (is_branch(t)) {
    std::vector<NodeId> targets;
    for (int k = 0; k < 2; ++k) {
      NodeId p = proj_of[k][t];
      if (p == kNone) g.fail(t, std::string("the if has no proj ") + (k == 0 ? "0 (true)" : "1 (false)"));
      NodeId target = g.role[p] == Role::Head ? p : listed_by[p];
      if (target == kNone) g.fail(p, "the proj leads nowhere: no region lists it and nothing hangs off it");
      targets.push_back(target);
    }
    return targets;
  }
  if (op_info(fn.nodes[t].op).results == "c") {
    if (listed_by[t] == kNone) g.fail(t, "no region lists the jump");
    return {listed_by[t]};
  }
  return {};
}

// Depth-first from start; a block gets its number when first reached.
void Finder::number_blocks() {
  block_of_head.assign(n, kNone);
  std::vector<std::vector<NodeId>> succ_heads;
  std::vector<NodeId> stack{start};
  block_of_head[start] = 0;
  g.flow.head.push_back(start);
  succ_heads.emplace_back();
  while (!stack.empty()) {
    NodeId h = stack.back();
    stack.pop_back();
    std::vector<NodeId> succs = successors(h);
    for (auto it = succs.rbegin(); it != succs.rend(); ++it) {
      if (block_of_head[*it] != kNone) continue;
      block_of_head[*it] = static_cast<uint32_t>(g.flow.head.size());
      g.flow.head.push_back(*it);
      stack.push_back(*it);
    }
    succ_heads[block_of_head[h]] = std::move(succs);
    succ_heads.resize(g.flow.head.size());
  }
  const size_t blocks = g.flow.head.size();
  g.flow.terminator.resize(blocks);
  g.flow.graph.succs.resize(blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    g.flow.terminator[b] = terminator_of[g.flow.head[b]];
    for (NodeId s : succ_heads[b]) g.flow.graph.succs[b].push_back(block_of_head[s]);
  }
}

void Finder::link_predecessors() {
  g.block.assign(n, kNone);
  for (NodeId id = 0; id < n; ++id) {
    switch (g.role[id]) {
      case Role::Head: g.block[id] = block_of_head[id]; break;
      case Role::Terminator:
      case Role::Phi:
      case Role::Pinned: g.block[id] = block_of_head[fn.nodes[id].control[0]]; break;
      default: break;
    }
  }
  g.flow.graph.preds.resize(g.flow.head.size());
  for (uint32_t b = 0; b < g.flow.head.size(); ++b) {
    const Node& h = fn.nodes[g.flow.head[b]];
    if (h.op == Op::Proj) {
      g.flow.graph.preds[b].push_back(g.block[h.inputs[0]]);
      continue;
    }
    for (NodeId c : h.control) {
      uint32_t p = g.role[c] == Role::ControlProj ? g.block[fn.nodes[c].inputs[0]] : g.block[c];
      if (p != kNone) g.flow.graph.preds[b].push_back(p);
    }
  }
  for (NodeId id = 0; id < n; ++id) {
    Role r = g.role[id];
    bool placed_role = r == Role::Head || r == Role::Terminator || r == Role::Phi || r == Role::Pinned;
    if (placed_role && g.block[id] == kNone) g.role[id] = Role::Dead;
    if (r == Role::ControlProj && g.block[fn.nodes[id].inputs[0]] == kNone) g.role[id] = Role::Dead;
  }
}

void Finder::build_users() {
  Users& u = g.users;
  u.begin.assign(n + 1, 0);
  for (const Node& m : fn.nodes)
    for (NodeId in : m.inputs) ++u.begin[in + 1];
  for (size_t i = 0; i < n; ++i) u.begin[i + 1] += u.begin[i];
  u.uses.resize(u.begin[n]);
  std::vector<uint32_t> fill(u.begin.begin(), u.begin.end() - 1);
  for (NodeId id = 0; id < n; ++id) {
    const Node& m = fn.nodes[id];
    for (uint32_t s = 0; s < m.inputs.size(); ++s) u.uses[fill[m.inputs[s]]++] = {id, s};
  }
}

}  // namespace

Graph find_flow(Function& fn) {
  Graph g(fn);
  Finder f(g);
  f.classify();
  f.index_region_inputs();
  f.index_branch_projs();
  f.find_heads();
  f.attach_pinned();
  f.number_blocks();
  f.link_predecessors();
  f.build_users();
  return g;
}

bool produces_memory(OpId op) {
  std::string_view r = op_info(op).results;
  return r.find('m') != std::string_view::npos;
}

bool is_memory_slot(OpId op, uint32_t slot) { return shape_letter(op_info(op).inputs, slot) == 'm'; }

bool reads_memory_only(OpId op) {
  return op_info(op).inputs.find('m') != std::string_view::npos && !produces_memory(op);
}

bool produces_flags(OpId op) { return op_info(op).results == "f"; }

}  // namespace pl::son2cfg
