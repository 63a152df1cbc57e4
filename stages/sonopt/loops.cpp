// loops.cpp - natural loops, invariance, header tests (see loops.h).
#include "loops.h"

#include <algorithm>
#include <map>

namespace pl::sonopt {

uint32_t LoopForest::edge_source(const Graph& g, const SonCfg& cfg, NodeId edge) {
  if (g.op(edge) == Op::Jump) return cfg.block_of[g.node(edge).control[0]];
  return cfg.block_of[edge];  // an if's proj: a block of its own
}

namespace {

void fill_entry(const Graph& g, const SonCfg& cfg, Loop& loop) {
  NodeId region = cfg.blocks[loop.header];
  if (g.op(region) != Op::Region) return;
  const auto& inputs = g.node(region).control;
  size_t outside = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    uint32_t from = LoopForest::edge_source(g, cfg, inputs[i]);
    if (from == DomTree::kNone || loop.contains(from)) continue;
    ++outside;
    loop.entry = inputs[i];
    loop.entry_index = i;
    loop.preheader = from;
  }
  if (outside != 1 || !cfg.reachable(loop.preheader)) {
    loop.entry = kNone;
    return;
  }
  loop.preheader_node = cfg.blocks[loop.preheader];
}

}  // namespace

LoopForest find_loops(const Graph& g, const SonCfg& cfg) {
  LoopForest forest;
  size_t count = cfg.blocks.size();
  // stamp[b] == h + 1: block b is in the loop of header h (one array for all
  // loops, so the cost is the loops' sizes, not loops x blocks).
  std::vector<uint32_t> stamp(count, 0);
  for (uint32_t h = 0; h < count; ++h) {
    if (!cfg.reachable(h)) continue;
    Loop loop;
    loop.header = h;
    uint32_t mark = h + 1;
    stamp[h] = mark;
    loop.blocks.push_back(h);
    std::vector<uint32_t> stack;
    for (uint32_t p : cfg.graph.preds[h]) {
      if (!cfg.reachable(p) || !cfg.dom.dominates(h, p)) continue;
      loop.latches.push_back(p);
      if (stamp[p] != mark) {
        stamp[p] = mark;
        loop.blocks.push_back(p);
        stack.push_back(p);
      }
    }
    if (loop.latches.empty()) continue;
    while (!stack.empty()) {
      uint32_t b = stack.back();
      stack.pop_back();
      for (uint32_t p : cfg.graph.preds[b])
        if (cfg.reachable(p) && stamp[p] != mark) {
          stamp[p] = mark;
          loop.blocks.push_back(p);
          stack.push_back(p);
        }
    }
    std::sort(loop.blocks.begin(), loop.blocks.end());
    std::sort(loop.latches.begin(), loop.latches.end());
    loop.latches.erase(std::unique(loop.latches.begin(), loop.latches.end()), loop.latches.end());
    fill_entry(g, cfg, loop);
    forest.loops.push_back(std::move(loop));
  }
  std::stable_sort(forest.loops.begin(), forest.loops.end(),
                   [](const Loop& a, const Loop& b) { return a.blocks.size() < b.blocks.size(); });
  return forest;
}

bool has_loop_carried_phi(const Function& fn) {
  for (NodeId n = 0; n < fn.nodes.size(); ++n) {
    const Node& nd = fn.nodes[n];
    if (nd.op != Op::Phi) continue;
    for (NodeId i : nd.inputs) {
      if (i == n) continue;
      const Node& in = fn.nodes[i];
      if (std::find(in.inputs.begin(), in.inputs.end(), n) != in.inputs.end()) return true;
    }
  }
  return false;
}

bool loop_invariant(const Graph& g, const SonCfg& cfg, const Loop& loop, NodeId n, InvariantMemo& memo) {
  std::vector<uint8_t>& state = memo.state;
  if (state.size() < g.size()) state.resize(g.size(), 0);
  auto settle = [&](NodeId m, bool invariant) {
    state[m] = invariant ? 1 : 2;
    memo.touched.push_back(m);
  };
  // Post-order over the inputs of floating nodes (acyclic: every cycle goes
  // through a phi, which is pinned).
  std::vector<NodeId> stack = {n};
  while (!stack.empty()) {
    NodeId m = stack.back();
    if (state[m] != 0) {
      stack.pop_back();
      continue;
    }
    const Node& nd = g.node(m);
    if (!nd.control.empty()) {
      uint32_t b = cfg.block_of_node(g, m);
      settle(m, b != DomTree::kNone && cfg.reachable(b) && !loop.contains(b) && cfg.dom.dominates(b, loop.header));
      stack.pop_back();
      continue;
    }
    bool pending = false;
    for (NodeId i : nd.inputs)
      if (state[i] == 0) {
        stack.push_back(i);
        pending = true;
      }
    if (pending) continue;
    settle(m, std::all_of(nd.inputs.begin(), nd.inputs.end(), [&](NodeId i) { return state[i] == 1; }));
    stack.pop_back();
  }
  return state[n] == 1;
}

std::vector<NodeId> header_phis(const Graph& g, const SonCfg& cfg, const Loop& loop) {
  std::vector<NodeId> phis;
  NodeId region = cfg.blocks[loop.header];
  for (NodeId u : g.users(region))
    if (g.alive(u) && g.op(u) == Op::Phi && g.node(u).control[0] == region) phis.push_back(u);
  std::sort(phis.begin(), phis.end());
  phis.erase(std::unique(phis.begin(), phis.end()), phis.end());
  return phis;
}

std::optional<HeaderTest> header_test(const Graph& g, const SonCfg& cfg, const Loop& loop) {
  NodeId t = cfg.terminator[loop.header];
  if (t == kNone || g.op(t) != Op::If) return std::nullopt;
  const std::vector<uint32_t>& succs = cfg.graph.succs[loop.header];
  if (succs.size() != 2) return std::nullopt;
  bool in0 = loop.contains(succs[0]), in1 = loop.contains(succs[1]);
  if (in0 == in1) return std::nullopt;
  return HeaderTest{t, g.node(t).inputs[0], in0};
}

}  // namespace pl::sonopt

namespace pl::sonopt {

std::vector<uint32_t> body_chain(const Graph& g, const SonCfg& cfg, const Loop& loop, bool through_projs) {
  if (!loop.simple() || loop.latches.size() != 1) return {};
  std::optional<HeaderTest> test = header_test(g, cfg, loop);
  if (!test) return {};
  NodeId region = cfg.blocks[loop.header];
  for (NodeId u : g.users(region)) {
    if (!g.alive(u) || g.node(u).control.empty() || g.node(u).control[0] != region) continue;
    if (g.op(u) != Op::Phi && u != test->branch) return {};
  }
  const std::vector<uint32_t>& succs = cfg.graph.succs[loop.header];
  uint32_t b = loop.contains(succs[0]) ? succs[0] : succs[1];
  std::vector<uint32_t> chain;
  while (chain.size() < loop.blocks.size()) {
    chain.push_back(b);
    NodeId t = cfg.terminator[b];
    // (through_projs: a proj that a region lists directly leads to it.)
    bool proj_block = through_projs && t == kNone && g.op(cfg.blocks[b]) == Op::Proj;
    if ((!proj_block && (t == kNone || g.op(t) != Op::Jump)) || cfg.graph.succs[b].size() != 1) return {};
    uint32_t next = cfg.graph.succs[b][0];
    if (next == loop.header) return chain.size() + 1 == loop.blocks.size() ? chain : std::vector<uint32_t>{};
    if (!loop.contains(next) || g.node(cfg.blocks[next]).control.size() != 1) return {};
    b = next;
  }
  return {};
}

namespace {

// A value during trip counting: base + off, base a loop-invariant node
// (kNone: a plain constant).
struct Affine {
  NodeId base = kNone;
  uint64_t off = 0;
};

class TripEval {
 public:
  TripEval(const Graph& g, const SonCfg& cfg, const Loop& loop)
      : g_(g), cfg_(cfg), loop_(loop), region_(cfg.blocks[loop.header]) {}

  using Env = std::map<NodeId, Affine>;  // header phi -> its value this trip

  // n's value when the header phis hold env's values; nullopt when it is
  // not known that way or takes more than kBudget steps to find.
  std::optional<Affine> value(NodeId n, const Env& env) {
    budget_ = kBudget;
    return eval(n, env, 0);
  }

  // The header phis' entry values.
  Env entry_env() {
    Env env;
    for (NodeId phi : header_phis(g_, cfg_, loop_))
      if (std::optional<Affine> v = value(g_.node(phi).inputs[loop_.entry_index], {})) env[phi] = *v;
    return env;
  }

 private:
  static constexpr int kBudget = 256;  // nodes per evaluation: the expressions are tiny, a DAG may not be

  std::optional<Affine> eval(NodeId n, const Env& env, int depth) {
    if (depth > 32 || --budget_ < 0) return std::nullopt;
    const Node& nd = g_.node(n);
    if (nd.op == Op::Const) return Affine{kNone, g_.const_value_of(n)};
    if (nd.op == Op::Phi && nd.control[0] == region_) {
      auto it = env.find(n);
      if (it == env.end()) return std::nullopt;
      return it->second;
    }
    if (g_.has(n, PURE) && eval_class(nd.op) != EvalClass::None) {
      std::vector<Affine> args;
      for (NodeId i : nd.inputs) {
        std::optional<Affine> v = eval(i, env, depth + 1);
        if (!v) return std::nullopt;
        args.push_back(*v);
      }
      if (std::optional<Affine> r = combine(nd, args)) return r;
    }
    if (loop_invariant(g_, cfg_, loop_, n, memo_)) return Affine{n, 0};
    return std::nullopt;
  }

  std::optional<Affine> combine(const Node& nd, const std::vector<Affine>& a) const {
    bool plain = std::all_of(a.begin(), a.end(), [](const Affine& x) { return x.base == kNone; });
    if (plain) {
      std::vector<uint64_t> vals;
      for (const Affine& x : a) vals.push_back(x.off);
      std::optional<uint64_t> v =
          eval_pure(nd.op, {nd.literals.data(), nd.literals.size()}, {vals.data(), vals.size()}, nullptr);
      if (!v) return std::nullopt;
      return Affine{kNone, *v};
    }
    if (a.size() != 2 || nd.literals.empty()) return std::nullopt;
    std::optional<ValueType> t = literal_value_type(nd.literals[0]);
    if (!t) return std::nullopt;
    uint64_t mask = width_mask(type_bits(*t));
    switch (nd.op) {
      case Op::Add:
        if (a[0].base != kNone && a[1].base != kNone) return std::nullopt;
        return Affine{a[0].base != kNone ? a[0].base : a[1].base, (a[0].off + a[1].off) & mask};
      case Op::Sub:
        if (a[1].base == kNone) return Affine{a[0].base, (a[0].off - a[1].off) & mask};
        if (a[0].base == a[1].base) return Affine{kNone, (a[0].off - a[1].off) & mask};
        return std::nullopt;
      case Op::Eq:
      case Op::Ne:
        if (a[0].base != a[1].base) return std::nullopt;
        return Affine{kNone, ((a[0].off & mask) == (a[1].off & mask)) == (nd.op == Op::Eq) ? 1u : 0u};
      default: return std::nullopt;
    }
  }

  const Graph& g_;
  const SonCfg& cfg_;
  const Loop& loop_;
  NodeId region_;
  InvariantMemo memo_;
  int budget_ = 0;
};

}  // namespace

std::optional<int> trip_count(const Graph& g, const SonCfg& cfg, const Loop& loop, const HeaderTest& test,
                              int max_trips) {
  TripEval ev(g, cfg, loop);
  std::vector<NodeId> phis = header_phis(g, cfg, loop);
  size_t back = 1 - loop.entry_index;
  TripEval::Env env = ev.entry_env();
  for (int t = 0; t <= max_trips; ++t) {
    std::optional<Affine> c = ev.value(test.cond, env);
    if (!c || c->base != kNone) return std::nullopt;
    if ((c->off != 0) != test.stays_on_true) return t;
    TripEval::Env next;
    for (NodeId phi : phis)
      if (std::optional<Affine> v = ev.value(g.node(phi).inputs[back], env)) next[phi] = *v;
    env = std::move(next);
  }
  return std::nullopt;
}

std::optional<uint64_t> eval_on_entry(const Graph& g, const SonCfg& cfg, const Loop& loop, NodeId n) {
  TripEval ev(g, cfg, loop);
  std::optional<Affine> v = ev.value(n, ev.entry_env());
  if (!v || v->base != kNone) return std::nullopt;
  return v->off;
}

std::vector<NodeId> loop_nodes(const Graph& g, const SonCfg& cfg, const Loop& loop,
                               const std::vector<uint32_t>& chain, size_t max_nodes, bool through_projs) {
  std::vector<bool> in(g.size(), false);
  std::vector<NodeId> stack;
  std::vector<NodeId> heads = header_phis(g, cfg, loop);
  for (NodeId phi : heads) {
    in[phi] = true;
    stack.push_back(phi);
  }
  for (uint32_t b : chain) {
    NodeId block = cfg.blocks[b];
    for (NodeId u : g.users(block)) {
      if (!g.alive(u) || in[u] || g.has(u, TERMINATOR) || g.node(u).control.empty() || g.node(u).control[0] != block)
        continue;
      if (g.op(u) == Op::Region) {  // a proj listed by a region directly
        if (through_projs && std::find(chain.begin(), chain.end(), cfg.block_of[u]) != chain.end()) continue;
        return {};
      }
      in[u] = true;
      stack.push_back(u);
    }
  }
  std::vector<NodeId> set;
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    if (!std::binary_search(heads.begin(), heads.end(), n)) set.push_back(n);
    if (set.size() > max_nodes) return {};
    for (NodeId u : g.users(n))
      if (!in[u] && g.alive(u) && g.node(u).control.empty()) {
        in[u] = true;
        stack.push_back(u);
      }
  }
  // Dependency order: ids are no order after edits, so sort by a DFS.
  std::sort(set.begin(), set.end());
  std::vector<uint8_t> state(g.size(), 0);  // 0 new, 1 on stack, 2 done
  std::vector<NodeId> order;
  for (NodeId root : set) {
    std::vector<std::pair<NodeId, size_t>> dfs = {{root, 0}};
    while (!dfs.empty()) {
      auto& [n, next] = dfs.back();
      if (next == 0 && state[n] != 0) {
        dfs.pop_back();
        continue;
      }
      state[n] = 1;
      const Node& nd = g.node(n);
      if (next < nd.inputs.size()) {
        NodeId i = nd.inputs[next++];
        if (in[i] && !std::binary_search(heads.begin(), heads.end(), i) && state[i] == 0) dfs.push_back({i, 0});
        continue;
      }
      state[n] = 2;
      order.push_back(n);
      dfs.pop_back();
    }
  }
  return order;
}

std::map<NodeId, NodeId> copy_body(Graph& g, const std::vector<NodeId>& nodes, const std::vector<NodeId>& phis,
                                   size_t back, const std::map<NodeId, NodeId>& entering, NodeId control) {
  std::map<NodeId, NodeId> copy = entering;  // original -> this copy's node
  auto mapped = [&](NodeId n) {
    auto it = copy.find(n);
    return it == copy.end() ? n : it->second;
  };
  for (NodeId n : nodes) {
    if (g.op(n) == Op::Phi) {  // one input: a copy
      copy[n] = mapped(g.node(n).inputs[0]);
      continue;
    }
    Node nd = g.node(n);
    for (NodeId& i : nd.inputs) i = mapped(i);
    if (!nd.control.empty()) nd.control[0] = control;
    copy[n] = g.add(std::move(nd));
  }
  std::map<NodeId, NodeId> after;
  for (NodeId phi : phis) after[phi] = mapped(g.node(phi).inputs[back]);
  return after;
}

}  // namespace pl::sonopt
