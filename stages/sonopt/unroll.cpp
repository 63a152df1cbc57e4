// unroll.cpp - full unrolling of small loops with a constant trip count:
// the body runs T times in a row before the loop, and the loop then runs
// zero times.
//
// Algorithm, for each simple loop (loops.h) made of the header (phis and
// the exit test only) and a straight body: a chain of blocks from the side
// of the test that stays to the latch, joined by jumps into one-input
// regions (a loop whose inner loop was unrolled and swept looks so):
//  1. Trip count T (scev.h's constant_trip_count): scalar evolution's exact
//     count when it is a constant; for a loop scev cannot count, by
//     evaluation (loops.h's trip_count: the header phis whose entry inputs
//     are constants, or offsets from a loop-invariant base, are stepped
//     through their back inputs and the exit test evaluated each time,
//     common/ir/eval.h; the first time it leaves gives T). No constant T,
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
#include <map>

#include "loops.h"
#include "passes.h"
#include "scev.h"

namespace pl::sonopt {

namespace {

constexpr int kMaxTrips = 8;
constexpr size_t kMaxNodes = 64;
constexpr int kRounds = 3;

class Unroll {
 public:
  Unroll(Graph& g, bool memset_ok) : g_(g), memset_ok_(memset_ok) {}

  // Rounds inside the pass: after unrolling, the dead bodies go (dce.cpp's
  // sweep_dead), so a loop around an unrolled one becomes a straight body
  // and unrolls in the next round, without a round of the pass manager.
  size_t run() {
    size_t changes = 0;
    for (int round = 0; round < kRounds; ++round) {
      cfg_ = *g_.son_cfg();
      forest_ = find_loops(g_, cfg_);
      size_t before = changes;
      for (const Loop& loop : forest_.loops) {
        std::vector<uint32_t> chain = body_chain(g_, cfg_, loop);
        if (!chain.empty() && !memset_idiom_loop(g_, cfg_, loop, memset_ok_) && unroll(loop, chain))  // (loop-idiom's)
          ++changes;
      }
      if (changes == before) break;
      sweep_dead(g_);
    }
    return changes;
  }

 private:
  bool unroll(const Loop& loop, const std::vector<uint32_t>& chain) {
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    std::optional<int> trips = constant_trip_count(g_, cfg_, loop, *test, memo_, kMaxTrips);
    if (!trips || *trips == 0) return false;
    std::vector<NodeId> nodes = loop_nodes(g_, cfg_, loop, chain, kMaxNodes);
    if (nodes.empty() || nodes.size() * static_cast<size_t>(*trips) > kMaxNodes) return false;
    std::vector<NodeId> phis = header_phis(g_, cfg_, loop);
    size_t back = 1 - loop.entry_index;
    std::map<NodeId, NodeId> cur;  // header phi -> its value entering this iteration
    for (NodeId phi : phis) cur[phi] = g_.node(phi).inputs[loop.entry_index];
    for (int t = 0; t < *trips; ++t) cur = copy_body(g_, nodes, phis, back, cur, loop.preheader_node);
    for (NodeId phi : phis) g_.set_input(phi, loop.entry_index, cur[phi]);
    NodeId old = test->cond;
    g_.set_input(test->branch, 0, g_.add_const(ValueType::I32, test->stays_on_true ? 0 : 1, g_.node(old).loc));
    g_.kill_if_unused(old);
    return true;
  }

  Graph& g_;
  SonCfg cfg_;
  LoopForest forest_;
  InvariantMemo memo_;  // shared by the loops' Scevs
  bool memset_ok_;
};

}  // namespace

size_t unroll(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!has_loop_carried_phi(fn)) return 0;
  Graph g(fn, cache);
  size_t changes = Unroll(g, memset_idiom_possible(fn, header)).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
