// local_schedule.cpp - schedule_blocks: the order of the nodes inside each
// block.
//
// Phis open the block (by id), then the entry block's params and entrymem
// (the values the call brings in, taken before anything can clobber the
// registers they arrive in), and the terminator closes it. The rest is
// ordered by Kahn's algorithm (seed 000's phases 1 and 2: count each node's
// unscheduled predecessors inside the block, keep the nodes with none in a
// ready list, take one, release its users). The ready list is a priority
// queue; the priority is, in order:
//  1. the longest dependency chain from the node to the end of the block,
//     weighted by a rough latency (seed 004: follow the longest chain first,
//     so that it starts as early as possible); loads and multiplications 3,
//     divisions 20, projs 0, the rest 1;
//  2. register pressure: the number of values whose live range the node ends
//     (its last unscheduled user in the block, the value used nowhere else)
//     minus one if it defines a value (ready nodes whose score grows as their
//     fellows are scheduled are pushed again with the new score);
//  3. the lowest node id, so the order is deterministic.
// Except under pressure: while more than kLocalPressure values defined in
// the block are live, the pick is the unit that frees most registers (2.)
// among the kPressureWindow most urgent ready units, then the longest chain:
// loads weighted 3 would otherwise all start first, and an unrolled body
// (sonopt's unroll-partial) would hold all its loaded values at once, more
// than there are registers. Out-of-order x86 cores hide the latencies this
// gives up, not the spills it avoids (LLVM's x86 pre-RA scheduler and gcc,
// which has no pre-RA scheduling on x86, decide the same way).
// The edges are the data inputs defined in the same block, plus memory
// anti-dependences: a node that reads memory state M without producing
// memory (a load) comes before every node of the block that consumes M and
// produces a newer state (store, call, copy, volatile access), or it would
// read the newer memory.
//
// Units: some nodes are scheduled as one with another. A tuple's projs
// follow it at once (they are not instructions: they name its results). An
// x64 flags producer (results "f") that has one user, in its block, is
// emitted directly before that user (flags do not survive other
// instructions), also when the user is the terminator. One that reads
// memory (x64:cmp.m, cmpi.m, ucomis.m) brings its anti-dependences to the
// unit: the unit comes before the block's overwriters of that memory,
// which a terminator cannot (a cycle, reported as bad input; son-lower-x64
// fuses a load into a branch's compare only where the block has none).
//
// Cost: O(E log E) per block for E edges; anti-dependence edges are one per
// (load, overwriting consumer of its state) pair in the block, linear for
// the one-successor memory chains the front end builds.
// Invariants needed: schedule_late has placed every live node, and every
// input of a node is available in its block (schedule_early checked it).
// A block whose dependences form a cycle (a load that must precede a store
// whose result it also needs) has no order and is reported as bad input.
#include <algorithm>
#include <queue>

#include "son2cfg.h"
#include "x64/x64.h"

namespace pl::son2cfg {

namespace {

constexpr uint32_t kLocalPressure = 4;
constexpr size_t kPressureWindow = 16;

uint32_t latency(OpId op) {
  const OpInfo& info = op_info(op);
  if (info.has(PROJ)) return 0;
  if (info.has(TRAPS)) return 20;
  if (reads_memory_only(op) || op == Op::Mul) return 3;
  return 1;
}

class BlockScheduler {
 public:
  explicit BlockScheduler(const Graph& g) : g_(g) {
    const size_t n = g.fn.nodes.size();
    unit_.assign(n, kNone);
    remaining_.assign(n, 0);
    can_die_.assign(n, 0);
  }

  std::vector<NodeId> schedule(uint32_t b, const std::vector<NodeId>& nodes);

 private:
  struct Entry {
    uint32_t height;
    int32_t pressure;
    NodeId rep;
    uint32_t unit;
    uint32_t version;
    bool operator<(const Entry& o) const {  // "less urgent than"
      if (height != o.height) return height < o.height;
      if (pressure != o.pressure) return pressure < o.pressure;
      return rep > o.rep;
    }
  };

  bool is_glued_flags(uint32_t b, NodeId id) const;
  void form_units(uint32_t b, const std::vector<NodeId>& body);
  void add_edges(uint32_t b);
  void order_topologically(uint32_t b);
  void prepare_pressure(uint32_t b);
  int32_t pressure(uint32_t u) const;
  bool defines_value(NodeId id) const;
  bool is_value_use(const Users::Use& use) const { return !is_memory_slot(g_.node(use.user).op, use.slot); }
  void push(uint32_t u);
  bool pop_ready(Entry& e);
  void release(uint32_t u);
  void reset();
  void sink_constants();
  [[noreturn]] void fail_cycle(uint32_t b) const;

  const Graph& g_;
  // Per node (kept across blocks, reset after each).
  std::vector<uint32_t> unit_;       // node -> unit in the current block
  std::vector<uint32_t> remaining_;  // value -> units of the block that still have to use it
  std::vector<char> can_die_;        // value -> every use is in the current block (no phi)
  // Per unit of the current block. The inner vectors are kept (cleared,
  // not freed) from block to block: a function has many small blocks, and
  // allocating them afresh for each was a fifth of the stage's time.
  uint32_t units_ = 0;
  std::vector<std::vector<NodeId>> members_;
  std::vector<std::vector<NodeId>> value_inputs_;  // distinct
  std::vector<std::vector<uint32_t>> succs_;
  std::vector<uint32_t> preds_left_, height_, version_;
  std::vector<char> scheduled_;
  std::vector<NodeId> touched_values_;
  uint32_t term_unit_ = kNone;
  std::priority_queue<Entry> ready_;
  std::vector<NodeId> out_, body_, topo_order_;
  std::vector<uint32_t> topo_left_;
  uint32_t live_local_ = 0;  // values defined in the block, scheduled, still live
  std::vector<Entry> window_;
};

bool BlockScheduler::is_glued_flags(uint32_t b, NodeId id) const {
  if (!produces_flags(g_.node(id).op) || g_.users.count(id) != 1) return false;
  NodeId user = g_.users.first(id)->user;
  Role r = g_.role[user];
  // Not glued to a user that is itself glued (one level: a flags producer
  // reading flags is scheduled on its own).
  bool user_glued = produces_flags(g_.node(user).op) && g_.users.count(user) == 1;
  return g_.block[user] == b && r != Role::Phi && r != Role::TupleProj && !user_glued;
}

// Units: a node with its projs after it and its glued flags producer before.
void BlockScheduler::form_units(uint32_t b, const std::vector<NodeId>& body) {
  units_ = 0;
  for (NodeId id : body) {
    if (g_.role[id] == Role::TupleProj || is_glued_flags(b, id)) continue;
    unit_[id] = units_++;
    if (members_.size() < units_) {
      members_.resize(units_);
      value_inputs_.resize(units_);
      succs_.resize(units_);
    }
    members_[unit_[id]].assign(1, id);
  }
  for (NodeId id : body) {
    if (!is_glued_flags(b, id)) continue;
    unit_[id] = unit_[g_.users.first(id)->user];
    auto& m = members_[unit_[id]];
    m.insert(m.end() - 1, id);
  }
  for (NodeId id : body) {
    if (g_.role[id] != Role::TupleProj) continue;
    uint32_t u = unit_[g_.node(id).inputs[0]];
    if (u == kNone) g_.fail(id, "the proj's tuple is not in its block");
    unit_[id] = u;
    members_[u].push_back(id);
  }
  const size_t units = units_;
  for (uint32_t u = 0; u < units; ++u) succs_[u].clear(), value_inputs_[u].clear();
  preds_left_.assign(units, 0);
  height_.assign(units, 0);
  version_.assign(units, 0);
  scheduled_.assign(units, 0);
  NodeId t = g_.flow.terminator[b];
  term_unit_ = t == kNone ? kNone : unit_[t];
}

void BlockScheduler::add_edges(uint32_t b) {
  auto edge = [&](NodeId from, NodeId to) {
    uint32_t a = unit_[from], c = unit_[to];
    if (a == c) return;
    succs_[a].push_back(c);
    ++preds_left_[c];
  };
  for (uint32_t u = 0; u < units_; ++u)
    for (NodeId id : members_[u]) {
      const Node& m = g_.node(id);
      for (NodeId d : m.inputs)
        if (g_.block[d] == b && unit_[d] != kNone) edge(d, id);
      if (!reads_memory_only(m.op)) continue;
      for (uint32_t s = 0; s < m.inputs.size(); ++s) {
        if (!is_memory_slot(m.op, s)) continue;
        NodeId mem = m.inputs[s];
        for (const Users::Use* w = g_.users.first(mem); w != g_.users.last(mem); ++w)
          if (w->user != id && unit_[w->user] != kNone && produces_memory(g_.node(w->user).op)) edge(id, w->user);
      }
    }
}

// Kahn in index order, only to find a cycle and to compute the chain heights.
void BlockScheduler::order_topologically(uint32_t b) {
  const size_t units = units_;
  std::vector<uint32_t>& left = topo_left_;
  std::vector<uint32_t>& order = topo_order_;
  left = preds_left_;
  order.clear();
  for (uint32_t u = 0; u < units; ++u)
    if (left[u] == 0) order.push_back(u);
  for (size_t i = 0; i < order.size(); ++i)
    for (uint32_t s : succs_[order[i]])
      if (--left[s] == 0) order.push_back(s);
  if (order.size() != units) fail_cycle(b);
  for (size_t i = units; i-- > 0;) {
    uint32_t u = order[i];
    uint32_t below = 0;
    for (uint32_t s : succs_[u]) below = std::max(below, height_[s]);
    uint32_t own = 0;
    for (NodeId id : members_[u]) own += latency(g_.node(id).op);
    height_[u] = own + below;
  }
}

bool BlockScheduler::defines_value(NodeId id) const {
  return g_.users.count(id) != 0 && is_value_use(*g_.users.first(id));
}

void BlockScheduler::prepare_pressure(uint32_t b) {
  for (uint32_t u = 0; u < units_; ++u) {
    std::vector<NodeId>& values = value_inputs_[u];
    for (NodeId id : members_[u]) {
      const Node& m = g_.node(id);
      for (uint32_t s = 0; s < m.inputs.size(); ++s)
        if (!is_memory_slot(m.op, s) && unit_[m.inputs[s]] != u) values.push_back(m.inputs[s]);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (NodeId d : values) {
      if (remaining_[d]++ != 0) continue;
      touched_values_.push_back(d);
      bool local = true;
      for (const Users::Use* w = g_.users.first(d); w != g_.users.last(d) && local; ++w)
        local = g_.block[w->user] == b && g_.role[w->user] != Role::Phi;
      can_die_[d] = local;
    }
  }
}

int32_t BlockScheduler::pressure(uint32_t u) const {
  int32_t score = 0;
  for (NodeId d : value_inputs_[u])
    if (can_die_[d] && remaining_[d] == 1) ++score;
  for (NodeId id : members_[u])
    if (defines_value(id)) --score;
  return score;
}

void BlockScheduler::push(uint32_t u) {
  ready_.push({height_[u], pressure(u), members_[u].front(), u, ++version_[u]});
}

// The next unit to schedule: the most urgent ready one, or under pressure
// the one of the most urgent few that frees most registers. False when
// nothing is ready.
bool BlockScheduler::pop_ready(Entry& e) {
  window_.clear();
  while (!ready_.empty() && window_.size() < (live_local_ > kLocalPressure ? kPressureWindow : 1)) {
    Entry top = ready_.top();
    ready_.pop();
    if (!scheduled_[top.unit] && top.version == version_[top.unit]) window_.push_back(top);
  }
  if (window_.empty()) return false;
  size_t best = 0;
  for (size_t i = 1; i < window_.size(); ++i)
    if (window_[i].pressure > window_[best].pressure) best = i;  // ties: the more urgent (earlier) one
  e = window_[best];
  for (size_t i = 0; i < window_.size(); ++i)
    if (i != best) ready_.push(window_[i]);
  return true;
}

// Emits unit u and releases what it was holding back.
void BlockScheduler::release(uint32_t u) {
  scheduled_[u] = 1;
  out_.insert(out_.end(), members_[u].begin(), members_[u].end());
  for (NodeId id : members_[u])
    if (defines_value(id)) ++live_local_;
  for (NodeId d : value_inputs_[u]) {
    if (remaining_[d] == 1 && can_die_[d] && unit_[d] != kNone && live_local_ > 0) --live_local_;
    if (--remaining_[d] != 1 || !can_die_[d]) continue;
    // The last user left now ends d's live range: score it again if ready.
    for (const Users::Use* w = g_.users.first(d); w != g_.users.last(d); ++w) {
      uint32_t last = unit_[w->user];
      if (last != kNone && !scheduled_[last] && preds_left_[last] == 0 && last != term_unit_) push(last);
    }
  }
  for (uint32_t s : succs_[u])
    if (--preds_left_[s] == 0 && s != term_unit_) push(s);
}

void BlockScheduler::fail_cycle(uint32_t b) const {
  g_.fail(g_.flow.head[b],
          "the nodes of this block cannot be ordered: their dependences form a cycle (a load must come before a "
          "node that overwrites the memory it reads, and that node also needs the load's result)");
}

void BlockScheduler::reset() {
  for (uint32_t u = 0; u < units_; ++u)
    for (NodeId id : members_[u]) unit_[id] = kNone;
  for (NodeId d : touched_values_) remaining_[d] = 0, can_die_[d] = 0;
  touched_values_.clear();
  while (!ready_.empty()) ready_.pop();
}

// Moves each constant made in one instruction (x64::rematerializable)
// down to just before the first node of the block that reads it, or to
// the end of the block (before the terminator) when only later blocks or
// phis read it; never between a flags producer and what follows it.
void BlockScheduler::sink_constants() {
  auto sinkable = [&](NodeId id) { return g_.role[id] == Role::Floating && x64::rematerializable(g_.node(id)); };
  bool any = false;
  for (NodeId id : out_) any = any || sinkable(id);
  if (!any) return;
  std::vector<NodeId>& result = body_;  // free again: the units are built
  result.clear();
  std::vector<NodeId> pending;
  for (NodeId id : out_)
    if (sinkable(id)) pending.push_back(id);
  auto emit = [&](NodeId c) {
    size_t pos = result.size();
    while (pos > 0 && produces_flags(g_.node(result[pos - 1]).op)) --pos;
    result.insert(result.begin() + static_cast<std::ptrdiff_t>(pos), c);
    pending.erase(std::find(pending.begin(), pending.end(), c));
  };
  for (size_t i = 0; i < out_.size(); ++i) {
    NodeId id = out_[i];
    if (sinkable(id)) continue;
    if (g_.role[id] != Role::Phi)  // a phi reads its inputs at the ends of the predecessors
      for (NodeId in : g_.node(id).inputs)
        if (std::find(pending.begin(), pending.end(), in) != pending.end()) emit(in);
    if (i + 1 == out_.size() && g_.role[id] == Role::Terminator)
      while (!pending.empty()) emit(pending.front());
    result.push_back(id);
  }
  while (!pending.empty()) emit(pending.front());
  out_.swap(result);
}

std::vector<NodeId> BlockScheduler::schedule(uint32_t b, const std::vector<NodeId>& nodes) {
  out_.clear();
  std::vector<NodeId>& body = body_;
  body.clear();
  for (NodeId id : nodes)
    if (g_.role[id] == Role::Phi) out_.push_back(id);
  for (NodeId id : nodes) {
    OpId op = g_.node(id).op;
    if (op == Op::Param || op == Op::EntryMem) out_.push_back(id);
    else if (g_.role[id] != Role::Phi) body.push_back(id);
  }
  form_units(b, body);
  add_edges(b);
  order_topologically(b);
  prepare_pressure(b);
  for (uint32_t u = 0; u < units_; ++u)
    if (preds_left_[u] == 0 && u != term_unit_) push(u);
  live_local_ = 0;
  Entry e;
  while (pop_ready(e)) release(e.unit);
  if (term_unit_ != kNone) {
    if (preds_left_[term_unit_] != 0) fail_cycle(b);
    release(term_unit_);
  }
  if (out_.size() != nodes.size()) fail_cycle(b);
  sink_constants();
  reset();
  return std::move(out_);
}

}  // namespace

std::vector<std::vector<NodeId>> schedule_blocks(const Graph& g) {
  const size_t blocks = g.flow.head.size();
  // The nodes of each block, by id: one array cut at `start` (counting sort).
  auto placed = [&](NodeId id) {
    Role r = g.role[id];
    return r != Role::Head && r != Role::ControlProj && r != Role::Dead;
  };
  std::vector<uint32_t> start(blocks + 1, 0);
  for (NodeId id = 0; id < g.fn.nodes.size(); ++id)
    if (placed(id)) ++start[g.block[id] + 1];
  for (size_t b = 0; b < blocks; ++b) start[b + 1] += start[b];
  std::vector<NodeId> members(start[blocks]);
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  for (NodeId id = 0; id < g.fn.nodes.size(); ++id)
    if (placed(id)) members[fill[g.block[id]]++] = id;
  BlockScheduler scheduler(g);
  std::vector<std::vector<NodeId>> order(blocks);
  std::vector<NodeId> nodes;
  for (uint32_t b = 0; b < blocks; ++b) {
    nodes.assign(members.begin() + start[b], members.begin() + start[b + 1]);
    order[b] = scheduler.schedule(b, nodes);
  }
  return order;
}

}  // namespace pl::son2cfg
