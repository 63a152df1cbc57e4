// unroll.cpp - full unrolling of small loops with a constant trip count:
// the body runs T times in a row before the loop, and the loop then runs
// zero times.
//
// Algorithm, for each simple loop (loops.h) made of the header (phis and
// the exit test only) and a straight body: a chain of blocks from the side
// of the test that stays to the latch, joined by jumps into one-input
// regions (a loop whose inner loop was unrolled and swept looks so):
//  1. Trip count by evaluation: the header phis whose entry inputs are
//     constants (common/eval.h through loops.h's evaluator) are stepped
//     through their back inputs, and the exit test evaluated each time; the
//     first time it leaves gives T. A test that is not a constant that way,
//     or T > kMaxTrips, leaves the loop alone; so does T = 0 (sccp's work).
//  2. Size budget: the loop's own nodes (the body's pinned nodes and every
//     floating node that reads a header phi or a body node, transitively)
//     times T at most kMaxNodes.
//  3. T copies of those nodes, in dependency order, each copy reading the
//     previous copy's values where the original read a header phi (the
//     first copy: the phis' entry inputs; a one-input phi of the body is a
//     copy of its input); pinned copies (loads, stores,
//     calls, divisions) hang off the preheader, in the order of their
//     memory chain, which the copies thread like the original iterations.
//  4. Each header phi's entry input becomes its value after T iterations,
//     and the exit test a constant that leaves: the loop runs zero times
//     and every use after it reads the final values. dce.cpp's sweep_dead
//     then removes the body (unreachable) and the back edge, and the pass
//     looks again (kRounds times at most), so nests of small loops unroll in
//     one application; simplify-cfg merges the blocks left.
// Paper: loop unrolling as in Aho, Sethi, Ullman 10.2; on the sea of nodes
// a body copy is a copy of its nodes with the phis renamed, as in Click's
// thesis ("Combining Analyses, Combining Optimizations", 1995) peeling.
// Invariants needed: the son contract. Kept: the son contract (copies of
// pinned nodes hang off the preheader, whose block dominates the loop; the
// entry inputs stay defined at the end of the preheader); every pinned node
// of the body runs T times in the original order, as before; volatile
// accesses keep their order (one memory chain).
#include <algorithm>
#include <map>

#include "loops.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr int kMaxTrips = 8;
constexpr size_t kMaxNodes = 64;
constexpr int kRounds = 3;

class Unroll {
 public:
  explicit Unroll(Graph& g) : g_(g) {}

  // Rounds inside the pass: after unrolling, the dead bodies go (dce.cpp's
  // sweep_dead), so a loop around an unrolled one becomes a straight body
  // and unrolls in the next round, without a round of the pass manager.
  size_t run() {
    size_t changes = 0;
    for (int round = 0; round < kRounds; ++round) {
      cfg_ = build_son_cfg(g_);
      forest_ = find_loops(g_, cfg_);
      size_t before = changes;
      for (const Loop& loop : forest_.loops) {
        std::vector<uint32_t> chain = body_chain(loop);
        if (!chain.empty() && unroll(loop, chain)) ++changes;
      }
      if (changes == before) break;
      sweep_dead(g_);
    }
    return changes;
  }

 private:
  // The body: a straight chain of blocks from the side of the exit test
  // that stays to the one latch, each ending with a `jump` into a region of
  // one control input (the next block) or, last, into the header. The
  // header holds only phis and the test. Empty when the loop is no such.
  std::vector<uint32_t> body_chain(const Loop& loop) const {
    if (!loop.simple() || loop.latches.size() != 1) return {};
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    if (!test) return {};
    NodeId region = cfg_.blocks[loop.header];
    for (NodeId u : g_.users(region)) {
      if (!g_.alive(u) || g_.node(u).control.empty() || g_.node(u).control[0] != region) continue;
      if (g_.op(u) != Op::Phi && u != test->branch) return {};
    }
    const std::vector<uint32_t>& succs = cfg_.graph.succs[loop.header];
    uint32_t b = loop.contains(succs[0]) ? succs[0] : succs[1];
    std::vector<uint32_t> chain;
    while (chain.size() < loop.blocks.size()) {
      chain.push_back(b);
      NodeId t = cfg_.terminator[b];
      if (t == kNone || g_.op(t) != Op::Jump || cfg_.graph.succs[b].size() != 1) return {};
      uint32_t next = cfg_.graph.succs[b][0];
      if (next == loop.header) return chain.size() + 1 == loop.blocks.size() ? chain : std::vector<uint32_t>{};
      if (!loop.contains(next) || g_.node(cfg_.blocks[next]).control.size() != 1) return {};
      b = next;
    }
    return {};
  }

  // Header phi values known as constants: phi -> value.
  using Env = std::map<NodeId, uint64_t>;

  std::optional<uint64_t> eval(NodeId n, const Env& env, NodeId region, int depth) const {
    if (depth > 32) return std::nullopt;
    const Node& nd = g_.node(n);
    if (nd.op == Op::Const) return g_.const_value_of(n);
    if (nd.op == Op::Phi) {
      if (nd.control[0] != region) return std::nullopt;
      auto it = env.find(n);
      if (it == env.end()) return std::nullopt;
      return it->second;
    }
    if (!g_.has(n, PURE) || eval_class(nd.op) == EvalClass::None) return std::nullopt;
    std::vector<uint64_t> args;
    for (NodeId i : nd.inputs) {
      std::optional<uint64_t> v = eval(i, env, region, depth + 1);
      if (!v) return std::nullopt;
      args.push_back(*v);
    }
    return eval_pure(nd.op, {nd.literals.data(), nd.literals.size()}, {args.data(), args.size()}, nullptr);
  }

  std::optional<int> trip_count(const Loop& loop, const HeaderTest& test) const {
    NodeId region = cfg_.blocks[loop.header];
    std::vector<NodeId> phis = header_phis(g_, cfg_, loop);
    size_t back = 1 - loop.entry_index;
    Env env;
    for (NodeId phi : phis)
      if (std::optional<uint64_t> v = eval(g_.node(phi).inputs[loop.entry_index], {}, region, 0)) env[phi] = *v;
    for (int t = 0; t <= kMaxTrips; ++t) {
      std::optional<uint64_t> c = eval(test.cond, env, region, 0);
      if (!c) return std::nullopt;
      if ((*c != 0) != test.stays_on_true) return t;
      Env next;
      for (NodeId phi : phis)
        if (std::optional<uint64_t> v = eval(g_.node(phi).inputs[back], env, region, 0)) next[phi] = *v;
      env = std::move(next);
    }
    return std::nullopt;
  }

  // The loop's own nodes (step 2), in dependency order; empty if too many.
  // The phis of the body's one-input regions are copies of their input.
  std::vector<NodeId> loop_nodes(const Loop& loop, const std::vector<uint32_t>& chain) const {
    std::vector<bool> in(g_.size(), false);
    std::vector<NodeId> stack;
    std::vector<NodeId> heads = header_phis(g_, cfg_, loop);
    for (NodeId phi : heads) {
      in[phi] = true;
      stack.push_back(phi);
    }
    for (uint32_t b : chain) {
      NodeId block = cfg_.blocks[b];
      for (NodeId u : g_.users(block)) {
        if (!g_.alive(u) || in[u] || g_.has(u, TERMINATOR) || g_.node(u).control.empty() ||
            g_.node(u).control[0] != block)
          continue;
        if (g_.op(u) == Op::Region) return {};  // a proj listed by a region directly
        in[u] = true;
        stack.push_back(u);
      }
    }
    std::vector<NodeId> set;
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      if (!std::binary_search(heads.begin(), heads.end(), n)) set.push_back(n);
      if (set.size() > kMaxNodes) return {};
      for (NodeId u : g_.users(n))
        if (!in[u] && g_.alive(u) && g_.node(u).control.empty()) {
          in[u] = true;
          stack.push_back(u);
        }
    }
    // Dependency order: ids are no order after edits, so sort by a DFS.
    std::sort(set.begin(), set.end());
    std::vector<uint8_t> state(g_.size(), 0);  // 0 new, 1 on stack, 2 done
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
        const Node& nd = g_.node(n);
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

  bool unroll(const Loop& loop, const std::vector<uint32_t>& chain) {
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    std::optional<int> trips = trip_count(loop, *test);
    if (!trips || *trips == 0) return false;
    std::vector<NodeId> nodes = loop_nodes(loop, chain);
    if (nodes.empty() || nodes.size() * static_cast<size_t>(*trips) > kMaxNodes) return false;
    std::vector<NodeId> phis = header_phis(g_, cfg_, loop);
    size_t back = 1 - loop.entry_index;
    std::map<NodeId, NodeId> cur;  // header phi -> its value entering this iteration
    for (NodeId phi : phis) cur[phi] = g_.node(phi).inputs[loop.entry_index];
    for (int t = 0; t < *trips; ++t) {
      std::map<NodeId, NodeId> copy = cur;  // original -> this iteration's node
      auto mapped = [&](NodeId n) {
        auto it = copy.find(n);
        return it == copy.end() ? n : it->second;
      };
      for (NodeId n : nodes) {
        if (g_.op(n) == Op::Phi) {  // one input: a copy
          copy[n] = mapped(g_.node(n).inputs[0]);
          continue;
        }
        Node nd = g_.node(n);
        for (NodeId& i : nd.inputs) i = mapped(i);
        if (!nd.control.empty()) nd.control[0] = loop.preheader_node;
        copy[n] = g_.add(std::move(nd));
      }
      std::map<NodeId, NodeId> next;
      for (NodeId phi : phis) next[phi] = mapped(g_.node(phi).inputs[back]);
      cur = std::move(next);
    }
    for (NodeId phi : phis) g_.set_input(phi, loop.entry_index, cur[phi]);
    NodeId old = test->cond;
    g_.set_input(test->branch, 0, g_.add_const(ValueType::I32, test->stays_on_true ? 0 : 1, g_.node(old).loc));
    g_.kill_if_unused(old);
    return true;
  }

  Graph& g_;
  SonCfg cfg_;
  LoopForest forest_;
};

}  // namespace

size_t unroll(Function& fn, const ModuleHeader&) {
  if (!has_loop_carried_phi(fn)) return 0;
  Graph g(fn);
  size_t changes = Unroll(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
