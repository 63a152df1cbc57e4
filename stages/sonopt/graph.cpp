// graph.cpp - def-use lists and edits over a son function (see graph.h).
#include "graph.h"

#include "ir/eval_float.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <string>

#include "ir/asm.h"
#include "ir/error.h"
#include "ir/eval_float.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

// What a function's FunctionCache holds for sonopt: the def-use lists of
// the function as it is, and its blocks once a pass asked for them.
struct GraphCache {
  size_t nodes = 0;  // the function's node count (a check)
  std::vector<UserList> users;
  std::shared_ptr<const SonCfg> cfg;
};

}  // namespace

Graph::Graph(Function& fn, FunctionCache* cache) : fn_(fn), cache_(cache) {
  auto* held = cache ? static_cast<GraphCache*>(cache->data.get()) : nullptr;
  if (!held || held->nodes != fn.nodes.size()) {
    build_users();
    return;
  }
  users_ = std::move(held->users);
  cfg_ = std::move(held->cfg);
  cache->clear();  // taken: a second Graph of the function meanwhile builds its own
  dead_.reserve(users_.capacity());
  dead_.resize(fn.nodes.size(), 0);
}

Graph::~Graph() {
  if (!cache_ || edited_ || users_.size() != fn_.nodes.size()) return;
  auto* held = static_cast<GraphCache*>(cache_->data.get());
  if (!held) {
    auto fresh = std::make_shared<GraphCache>();
    held = fresh.get();
    cache_->data = std::move(fresh);
  }
  held->nodes = fn_.nodes.size();
  held->users = std::move(users_);
  held->cfg = std::move(cfg_);
}

void Graph::build_users() {
  // Room for the nodes the function's array already has room for (a pass
  // that adds nodes leaves it larger), so adding nodes rarely moves every
  // user list.
  users_.reserve(fn_.nodes.capacity());
  users_.resize(fn_.nodes.size());
  dead_.reserve(fn_.nodes.capacity());
  dead_.resize(fn_.nodes.size(), 0);
  for (NodeId n = 0; n < size(); ++n) {
    for (NodeId c : fn_.nodes[n].control) add_user(c, n);
    for (NodeId i : fn_.nodes[n].inputs) add_user(i, n);
  }
}

std::shared_ptr<const SonCfg> Graph::son_cfg() {
  if (cfg_) return cfg_;
  auto built = std::make_shared<const SonCfg>(build_son_cfg(*this));
  if (!edited_) cfg_ = built;
  return built;
}

uint64_t Graph::const_value_of(NodeId n) const {
  const Node& nd = node(n);
  return const_value(nd.literals[1], type_bits(const_type(n)));
}

ValueType Graph::const_type(NodeId n) const { return *literal_value_type(node(n).literals[0]); }

std::optional<uint64_t> Graph::constant_value(NodeId n) const {
  if (is_const(n)) return const_value_of(n);
  if (op(n) != Op::FConst) return std::nullopt;
  const Node& nd = node(n);
  std::optional<ValueType> t = literal_value_type(nd.literals[0]);
  if (!t || nd.literals[1].kind() != Literal::Kind::Float) return std::nullopt;
  uint64_t bits = nd.literals[1].bits();
  return *t == ValueType::F32 ? uint64_t{f32_bits_of_f64_bits(bits)} : bits;
}

std::optional<ValueType> Graph::constant_type(NodeId n) const {
  if (!is_const(n) && op(n) != Op::FConst) return std::nullopt;
  return literal_value_type(node(n).literals[0]);
}

NodeId Graph::add(Node node) {
  edit();
  NodeId id = size();
  fn_.nodes.push_back(std::move(node));
  users_.emplace_back();
  dead_.push_back(0);
  for (NodeId c : fn_.nodes[id].control) add_user(c, id);
  for (NodeId i : fn_.nodes[id].inputs) add_user(i, id);
  return id;
}

NodeId Graph::add_node(OpId op, LiteralList literals, InputList inputs, Loc loc, ControlList control) {
  Node n;
  n.op = op;
  n.literals = std::move(literals);
  n.inputs = std::move(inputs);
  n.control = std::move(control);
  n.loc = loc;
  return add(std::move(n));
}

NodeId Graph::proj(NodeId tuple, int64_t index) const {
  NodeId found = kNone;
  for (NodeId u : users_[tuple])
    if (!dead_[u] && op(u) == Op::Proj && node(u).literals[0].as_int() == index) found = std::min(found, u);
  return found;
}

bool Graph::used_only_by(NodeId n, std::initializer_list<NodeId> allowed) const {
  for (NodeId u : users_[n])
    if (std::find(allowed.begin(), allowed.end(), u) == allowed.end()) return false;
  return true;
}

void Graph::add_all(std::vector<Node> nodes) {
  edit();
  NodeId first = size();
  for (Node& nd : nodes) fn_.nodes.push_back(std::move(nd));
  users_.resize(size());
  dead_.resize(size(), 0);
  for (NodeId id = first; id < size(); ++id) {
    for (NodeId c : fn_.nodes[id].control) add_user(c, id);
    for (NodeId i : fn_.nodes[id].inputs) add_user(i, id);
  }
}

Literal const_literal(ValueType type, uint64_t value) {
  return Literal::integer(sign_extend(value, type_bits(type)));
}

NodeId Graph::add_const(ValueType type, uint64_t value, Loc loc) {
  Node n;
  n.op = Op::Const;
  n.literals = {Literal::string(value_type_name(type)), const_literal(type, value)};
  n.loc = loc;
  return add(std::move(n));
}

NodeId Graph::add_constant(ValueType type, uint64_t value, Loc loc) {
  if (!is_float(type)) return add_const(type, value, loc);
  uint64_t bits = type == ValueType::F32 ? f64_bits_of_f32_bits(static_cast<uint32_t>(value)) : value;
  Node n;
  n.op = Op::FConst;
  n.literals = {Literal::string(value_type_name(type)), Literal::float_bits(bits)};
  n.loc = loc;
  return add(std::move(n));
}

void Graph::remove_user(NodeId of, NodeId user) {
  UserList& list = users_[of];
  auto it = std::find(list.begin(), list.end(), user);
  if (it == list.end()) throw std::logic_error("graph: " + node_name(user) + " is not a user of " + node_name(of));
  *it = list.back();
  list.pop_back();
}

void Graph::set_input(NodeId n, size_t i, NodeId v) {
  edit();
  NodeId old = fn_.nodes[n].inputs[i];
  if (old == v) return;
  remove_user(old, n);
  fn_.nodes[n].inputs[i] = v;
  add_user(v, n);
}

void Graph::set_control(NodeId n, size_t i, NodeId c) {
  edit();
  NodeId old = fn_.nodes[n].control[i];
  if (old == c) return;
  remove_user(old, n);
  fn_.nodes[n].control[i] = c;
  add_user(c, n);
}

namespace {
constexpr uint8_t kPosMoved = 1, kPosRetired = 2;
}

void Graph::set_position_forward(NodeId from, NodeId to, uint8_t how) {
  if (pos_how_.size() <= from) {
    pos_how_.resize(size(), 0);
    pos_forward_.resize(size(), kNone);
  }
  if (pos_how_[from] != 0) return;  // the first word on a position stands
  pos_how_[from] = how;
  pos_forward_[from] = to;
}

void Graph::add_binding(DebugBind b) {
  edit();
  if (b.var < fn_.debug.vars.size()) fn_.debug.vars[b.var].slot = kNoSlot;
  fn_.debug.binds.push_back(b);
}

void Graph::move_position(NodeId from, NodeId to) {
  if (tracks_positions()) set_position_forward(from, to, kPosMoved);
}

void Graph::retire_position(NodeId from, NodeId to) {
  if (tracks_positions()) set_position_forward(from, to, kPosRetired);
}

bool Graph::makes_memory(NodeId n) const {
  if (op(n) >= kNumOps) return false;
  if (op(n) == Op::Proj) {
    const Node& nd = node(n);
    if (nd.inputs.empty() || nd.literals.empty() || op(nd.inputs[0]) >= kNumOps) return false;
    std::string_view results = op_info(op(nd.inputs[0])).results;
    int64_t k = nd.literals[0].as_int();
    return results.size() > 1 && k >= 0 && static_cast<size_t>(k) < results.size() && results[k] == 'm';
  }
  if (op(n) == Op::Phi) {  // a memory phi: some input, through phis, makes memory
    std::vector<NodeId> stack = {n}, seen;
    while (!stack.empty() && seen.size() < 64) {
      NodeId p = stack.back();
      stack.pop_back();
      if (std::find(seen.begin(), seen.end(), p) != seen.end()) continue;
      seen.push_back(p);
      for (NodeId in : node(p).inputs) {
        if (op(in) == Op::Phi) stack.push_back(in);
        else if (op(in) < kNumOps) return op(in) == Op::Proj ? makes_memory(in) : op_info(op(in)).results == "m";
      }
    }
    return false;
  }
  return op_info(op(n)).results == "m";
}

NodeId Graph::block_of_memory(NodeId m) const {
  NodeId at = op(m) == Op::Proj ? node(m).inputs[0] : m;
  const Node& nd = node(at);
  return nd.control.empty() ? kNone : nd.control[0];
}

NodeId Graph::memory_position_in(NodeId m, NodeId block) const {
  if (op(m) == Op::Phi || op(m) == Op::EntryMem) return block;
  return block_of_memory(m) == block ? m : block;
}

NodeId Graph::end_position(NodeId block) const {
  // The memory states the block's effects make; the last is the one no
  // other effect of the block reads.
  std::vector<NodeId> made;
  for (NodeId u : users(block)) {
    if (dead_[u] || node(u).control.empty() || node(u).control[0] != block || op(u) == Op::Phi) continue;
    if (makes_memory(u)) made.push_back(u);
    else if (op(u) < kNumOps && op_info(op(u)).results.size() > 1)
      for (NodeId p : users(u))
        if (!dead_[p] && op(p) == Op::Proj && makes_memory(p)) made.push_back(p);
  }
  std::sort(made.begin(), made.end());
  made.erase(std::unique(made.begin(), made.end()), made.end());
  auto is_made = [&](NodeId n) { return std::binary_search(made.begin(), made.end(), n); };
  NodeId last = kNone;
  for (NodeId m : made) {
    bool read_here = false;  // by another effect of the block
    for (NodeId u : users(m)) {
      if (dead_[u]) continue;
      read_here |= is_made(u);
      if (op(u) < kNumOps && op(u) != Op::Proj && op_info(op(u)).results.size() > 1)
        for (NodeId p : users(u)) read_here |= !dead_[p] && is_made(p);
    }
    if (read_here) continue;
    if (last != kNone) return kNone;
    last = m;
  }
  return last == kNone ? block : last;
}

void Graph::replace_uses(NodeId old, NodeId with) {
  edit();
  if (old == with) return;
  if (!fn_.debug.binds.empty()) {
    if (forward_.size() <= old) forward_.resize(size(), kNone);
    forward_[old] = with;
    if (is_control_point(*this, old))
      set_position_forward(old, is_control_point(*this, with) ? end_position(with) : kNone, kPosMoved);
    else if (makes_memory(old) && makes_memory(with)) {
      NodeId block = block_of_memory(old);
      if (block != kNone) set_position_forward(old, memory_position_in(with, block), kPosMoved);
    }
  }
  UserList list = std::move(users_[old]);
  users_[old].clear();
  // A user reading `old` k times is listed k times: the first visit moves
  // every one of its edges, the later ones find nothing left to move.
  for (NodeId u : list) {
    Node& nd = fn_.nodes[u];
    for (NodeId& c : nd.control)
      if (c == old) {
        c = with;
        add_user(with, u);
      }
    for (NodeId& i : nd.inputs)
      if (i == old) {
        i = with;
        add_user(with, u);
      }
  }
}

void Graph::remove_region_input(NodeId region, size_t i) {
  edit();
  std::vector<NodeId> phis;
  for (NodeId u : users_[region])
    if (op(u) == Op::Phi && !dead_[u]) phis.push_back(u);
  std::sort(phis.begin(), phis.end());
  phis.erase(std::unique(phis.begin(), phis.end()), phis.end());
  for (NodeId phi : phis) {
    Node& nd = fn_.nodes[phi];
    NodeId v = nd.inputs[i];
    nd.inputs.erase(nd.inputs.begin() + static_cast<std::ptrdiff_t>(i));
    remove_user(v, phi);
  }
  Node& r = fn_.nodes[region];
  NodeId c = r.control[i];
  r.control.erase(r.control.begin() + static_cast<std::ptrdiff_t>(i));
  remove_user(c, region);
}

void Graph::kill(NodeId n) {
  if (dead_[n]) return;
  edit();
  if (!users_[n].empty())
    throw std::logic_error("graph: killing " + node_name(n) + " while " + node_name(users_[n][0]) + " uses it");
  Node& nd = fn_.nodes[n];
  for (NodeId c : nd.control) remove_user(c, n);
  for (NodeId i : nd.inputs) remove_user(i, n);
  nd.control.clear();
  nd.inputs.clear();
  dead_[n] = 1;
  ++dead_count_;
}

void Graph::kill_set(const std::vector<NodeId>& set) {
  if (!set.empty()) edit();
  for (NodeId n : set) {
    Node& nd = fn_.nodes[n];
    for (NodeId c : nd.control) remove_user(c, n);
    for (NodeId i : nd.inputs) remove_user(i, n);
    nd.control.clear();
    nd.inputs.clear();
  }
  for (NodeId n : set) {
    if (!users_[n].empty())
      throw std::logic_error("graph: killing " + node_name(n) + " while the live " + node_name(users_[n][0]) +
                             " uses it");
    dead_[n] = 1;
    ++dead_count_;
  }
}

void Graph::replace_call(NodeId call, NodeId value, NodeId mem) {
  for (NodeId p; (p = proj(call, 1)) != kNone;) {
    if (value != kNone) replace_uses(p, value);
    kill(p);
  }
  for (NodeId p; (p = proj(call, 0)) != kNone;) {
    replace_uses(p, mem);
    kill(p);
  }
  std::vector<NodeId> inputs(node(call).inputs.begin() + 1, node(call).inputs.end());
  kill(call);
  for (NodeId in : inputs) kill_if_unused(in);
}

size_t Graph::kill_if_unused(NodeId n) {
  size_t killed = 0;
  std::vector<NodeId> stack = {n};
  while (!stack.empty()) {
    NodeId m = stack.back();
    stack.pop_back();
    if (dead_[m] || !users_[m].empty()) continue;
    bool removable = !has(m, PINNED) || op(m) == Op::Phi || op(m) == Op::Param;
    if (has(m, PROJ)) removable = op(node(m).inputs[0]) != Op::If;
    if (!removable) continue;
    std::vector<NodeId> inputs(node(m).inputs.begin(), node(m).inputs.end());
    kill(m);
    ++killed;
    for (NodeId i : inputs) stack.push_back(i);
  }
  return killed;
}

size_t Graph::finish() {
  if (dead_count_ == 0) return 0;  // nothing killed: every id stays
  std::vector<NodeId> new_id(size(), kNone);
  NodeId next = 0;
  for (NodeId n = 0; n < size(); ++n)
    if (!dead_[n]) new_id[n] = next++;
  size_t dropped = size() - next;
  if (dropped == 0) return 0;
  auto map = [&](NodeId from, NodeId id) {
    if (new_id[id] == kNone)
      throw std::logic_error("graph: " + node_name(from) + " reads the dead node " + node_name(id));
    return new_id[id];
  };
  // Compacted in place: a live node's new id is never above its old one.
  for (NodeId n = 0; n < size(); ++n) {
    if (dead_[n]) continue;
    Node& nd = fn_.nodes[n];
    for (NodeId& c : nd.control) c = map(n, c);
    for (NodeId& i : nd.inputs) i = map(n, i);
    if (new_id[n] != n) fn_.nodes[new_id[n]] = std::move(nd);
  }
  fn_.nodes.resize(next);
  forward_debug_bindings(new_id);
  forward_debug_positions(new_id);
  remap_debug_slots(fn_.debug, new_id, kNone);
  users_.clear();
  dead_.clear();
  return dropped;
}

// A binding whose node goes follows replace_uses to the node that took its
// uses (the same value), if that one stays.
void Graph::forward_debug_bindings(const std::vector<NodeId>& new_id) const {
  for (DebugBind& b : fn_.debug.binds) {
    NodeId n = b.value;
    for (size_t steps = 0; n != kNone && n < new_id.size() && new_id[n] == kNone && steps < forward_.size(); ++steps)
      n = n < forward_.size() ? forward_[n] : kNone;
    if (n != kNone && n < new_id.size() && new_id[n] != kNone) b.value = n;
  }
}

// A binding whose position went follows the recorded positions (moves,
// retirements) to one that stays; one without a record stays on the dead
// node (remap_debug_slots makes it lost). A
// retired binding becomes a kill placed before the variable's bindings
// already at its new position.
void Graph::forward_debug_positions(const std::vector<NodeId>& new_id) const {
  auto alive_after = [&](NodeId n) { return n != kNone && n < new_id.size() && new_id[n] != kNone; };
  struct Retired {
    DebugBind bind;
    NodeId target;  // the position it was retired to (before later moves)
  };
  std::vector<DebugBind> kept;
  std::vector<NodeId> original;  // per kept binding: its position before this finish
  std::vector<Retired> retired;
  for (DebugBind b : fn_.debug.binds) {
    const NodeId from = b.pos;
    NodeId target = kNone;
    NodeId p = b.pos;
    for (size_t steps = 0; p != kNone && !alive_after(p) && steps <= pos_how_.size(); ++steps) {
      if (p >= pos_how_.size() || pos_how_[p] == 0) break;
      if (pos_how_[p] == kPosRetired && target == kNone) target = pos_forward_[p];
      p = pos_forward_[p];
    }
    if (alive_after(p) || p == kNone) b.pos = p == kNone ? kNoSlot : p;
    if (target != kNone && alive_after(b.pos)) {
      if (b.droppable) continue;
      b.value = kNoSlot;
      retired.push_back({b, target});
      continue;
    }
    kept.push_back(b);
    original.push_back(from);
  }
  // A kill from a retired position takes effect before the bindings that
  // were at its target already (the merge's own: a phi's, a select's) and
  // after every other binding that ends at the same position (code before
  // the branch, joined into the same block).
  for (const Retired& r : retired) {
    size_t at = kept.size();
    for (size_t i = 0; i < kept.size(); ++i)
      if (kept[i].var == r.bind.var && kept[i].pos == r.bind.pos && original[i] == r.target) {
        at = i;
        break;
      }
    kept.insert(kept.begin() + static_cast<std::ptrdiff_t>(at), r.bind);
    original.insert(original.begin() + static_cast<std::ptrdiff_t>(at), r.target);
  }
  fn_.debug.binds = std::move(kept);
}

std::optional<ValueType> result_type(const Graph& g, NodeId n) {
  for (int steps = 0; steps < 64 && n != kNone; ++steps) {
    const Node& nd = g.node(n);
    switch (nd.op) {
      case Op::Const:
      case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
      case Op::Shl: case Op::LShr: case Op::AShr: case Op::SDiv: case Op::UDiv: case Op::SRem: case Op::URem:
      case Op::Neg: case Op::Not: case Op::Load: case Op::Param:
        return literal_value_type(nd.literals[0]);
      case Op::Eq: case Op::Ne: case Op::SLt: case Op::SLe: case Op::ULt: case Op::ULe:
        return ValueType::I32;
      case Op::SExt: case Op::ZExt: case Op::Trunc:
        return literal_value_type(nd.literals[1]);
      case Op::SymAddr:
      case Op::TlsAddr:
      case Op::StackSlot:
      case Op::FrameAddress:
      case Op::ReturnAddress:
        return ValueType::Ptr;
      case Op::Proj: {
        const Node& tuple = g.node(nd.inputs[0]);
        if (tuple.op == Op::Asm && nd.literals[0].is_int() && nd.literals[0].as_int() >= 1) {
          size_t k = static_cast<size_t>(nd.literals[0].as_int()), seen = 0;
          for (const AsmOperand& op : asm_operands(tuple))
            if (op.yields_value() && ++seen == k) return op.type;
          return std::nullopt;
        }
        if (!nd.literals[0].is_int() || nd.literals[0].as_int() != 1) return std::nullopt;
        if (tuple.op == Op::LoadV || tuple.op == Op::AtomicLoad || tuple.op == Op::AtomicRmw ||
            tuple.op == Op::AtomicCmpXchg)
          return literal_value_type(tuple.literals[0]);
        if (tuple.op == Op::Call || tuple.op == Op::VaArg) return literal_value_type(tuple.literals[0]);
        if (tuple.op == Op::Alloca || tuple.op == Op::StackSave) return ValueType::Ptr;
        return std::nullopt;
      }
      case Op::Phi: {
        NodeId next = kNone;
        for (NodeId i : nd.inputs)
          if (i != n && g.op(i) != Op::Phi) next = i;
        if (next == kNone && !nd.inputs.empty()) next = nd.inputs[0] == n ? kNone : nd.inputs[0];
        n = next;
        continue;
      }
      default:
        // Floating-point opcodes: comparisons give an i32, conversions and
        // bitcasts their second type, the rest (fconst too) their first.
        if (!is_float_op(nd.op)) return std::nullopt;
        if (float_pred(nd.op)) return ValueType::I32;
        if (nd.op != Op::FConst && nd.literals.size() == 2) return literal_value_type(nd.literals[1]);
        return literal_value_type(nd.literals[0]);
    }
  }
  return std::nullopt;
}

}  // namespace pl::sonopt

namespace pl::sonopt {

std::vector<NodeId> topological_order(const Graph& g) {
  std::vector<uint32_t> pending(g.size(), 0);
  auto counts = [&](NodeId n) { return g.op(n) != Op::Phi && g.op(n) != Op::Region; };
  for (NodeId n = 0; n < g.size(); ++n) {
    if (!g.alive(n)) continue;
    if (g.op(n) == Op::Phi) pending[n] = static_cast<uint32_t>(g.node(n).control.size());
    else if (counts(n)) pending[n] = static_cast<uint32_t>(g.node(n).control.size() + g.node(n).inputs.size());
  }
  // The smallest ready node each step. Nodes mostly follow their operands
  // in id order, so a cursor walks the ids and finds most ready nodes in
  // place; only a node that becomes ready after the cursor passed it waits
  // in the heap. The next node is the smaller of the heap's top and the
  // first ready id at or after the cursor: the same order as one heap of
  // every ready node, in linear time for a graph already in order.
  std::vector<NodeId> order;
  order.reserve(g.size());
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> behind;
  NodeId cursor = 0;
  auto ready_at_cursor = [&] {
    while (cursor < g.size() && (!g.alive(cursor) || pending[cursor] != 0)) ++cursor;
    return cursor;
  };
  for (;;) {
    NodeId ahead = ready_at_cursor();
    NodeId n;
    if (!behind.empty() && (ahead == g.size() || behind.top() < ahead)) {
      n = behind.top();
      behind.pop();
    } else if (ahead < g.size()) {
      n = ahead;
      ++cursor;
    } else {
      break;
    }
    order.push_back(n);
    for (NodeId u : g.users(n)) {
      if (g.op(u) == Op::Region) continue;
      // A phi waits for its region only, not for its inputs.
      if (g.op(u) == Op::Phi && g.node(u).control[0] != n) continue;
      if (pending[u] > 0 && --pending[u] == 0 && u < cursor) behind.push(u);
    }
  }
  return order;
}

}  // namespace pl::sonopt
