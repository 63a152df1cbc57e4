// unroll_partial.cpp - partial unrolling of small innermost loops with a
// constant trip count: the body runs k = 2, 4, 8 or 16 times per trip through the
// header, so the exit test, the branch back and the counter or pointer
// steps are paid once per k iterations, and later passes see the copies
// side by side (idealize folds `(p + 4) + 4` into `p + 8`, which
// son-lower-x64 folds into the loads' displacements).
//
// Algorithm, for each simple innermost loop (loops.h) made of the header
// (phis and the exit test only) and a straight body chain (loops.h's
// body_chain), after iv-reduce (so the copies step the reduced pointers,
// not a counter whose extensions iv-reduce would no longer recognize):
//  1. Trip count T (scev.h's constant_trip_count: scalar evolution's exact
//     count when it is a constant, else by evaluation, loops.h's trip_count,
//     at most kMaxEvalTrips steps), kMinTrips < T <= kMaxEvalTrips (shorter
//     loops are unroll's, which removes them whole).
//  2. The body's needed nodes: of the loop's own nodes (loops.h's
//     loop_nodes), those the header phis' back inputs and the body's
//     effects (stores, calls, copies, volatile accesses, divisions that may
//     trap) reach; the exit test's compare is not among them (only the
//     header reads it), so no dead copy of it is made. n is their number.
//  3. k: the largest of 16, 8, 4 and 2 that divides T with n * k within
//     kBudget. Idempotence (running sonopt -O2 again changes nothing): the
//     unrolled loop has T / k trips and k * n needed nodes, so unrolling it
//     again by some k' >= 2 would need 2k to divide T and 2k * n to fit,
//     which the choice of the largest k excludes (for k = 16, 32 * n fits
//     the budget only for n = 1, and a body that steps its loop has two
//     nodes at least).
//  4. k - 1 copies of the needed nodes, in dependency order, each reading
//     the previous copy's values where the original read a header phi (the
//     first copy: the phis' back inputs, the values after the original
//     body); pinned copies hang off the latch (the chain's last block, which
//     every trip runs after all the others), in the order of their memory
//     chain, which the copies thread like consecutive iterations.
//  5. Each header phi's back input becomes the last copy's value.
// Why it is exact: T is a multiple of k and the exit test depends on the
// trip only (that is how T was found), so the test, now asked before
// iterations 0, k, 2k, ..., T, gives the answers it gave there before, and
// the skipped tests would all have stayed in the loop; the pinned nodes run
// in the same order, the same number of times.
// Paper: loop unrolling (Aho, Sethi, Lam, Ullman, 2nd ed., 10.5; LLVM's
// LoopUnroll with a known trip count, whose remainder loop we avoid by
// requiring k | T). On the sea of nodes a copy of the body is a copy of its
// nodes with the header phis renamed (Click's thesis, 1995, peeling).
// Invariants needed: the son contract. Kept: the son contract (copies of
// pinned nodes hang off the latch block, which the body's other blocks
// dominate; the copies read only values defined in the loop before them or
// outside it); every pinned node of the body runs T times in the original
// order, as before; volatile accesses keep their order (one memory chain).
#include <algorithm>
#include <map>

#include "loops.h"
#include "passes.h"
#include "scev.h"

namespace pl::sonopt {

namespace {

constexpr int kMaxEvalTrips = 4096;
constexpr int kMinTrips = 8;
constexpr size_t kBudget = 48;  // needed nodes of the unrolled body, at most

class PartialUnroll {
 public:
  PartialUnroll(Graph& g, bool memset_ok)
      : g_(g), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), forest_(find_loops(g, cfg_)), memset_ok_(memset_ok) {}

  // The nodes whose code now also runs in copies (and the header phis,
  // which skip the copies' values): a variable bound to one of them cannot
  // be told apart from its copies (lose_copied_bindings).
  const std::vector<NodeId>& copied() const { return copied_; }

  size_t run() {
    size_t changes = 0;
    for (const Loop& loop : forest_.loops)
      if (innermost(loop) && !memset_idiom_loop(g_, cfg_, loop, memset_ok_) && unroll(loop))  // (loop-idiom's)
        ++changes;
    return changes;
  }

 private:
  bool innermost(const Loop& loop) const {
    for (const Loop& other : forest_.loops)
      if (other.header != loop.header && loop.contains(other.header)) return false;
    return true;
  }

  bool unroll(const Loop& loop) {
    std::vector<uint32_t> chain = body_chain(g_, cfg_, loop);
    if (chain.empty()) return false;
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    std::optional<int> trips = constant_trip_count(g_, cfg_, loop, *test, memo_, kMaxEvalTrips);
    if (!trips || *trips <= kMinTrips) return false;
    std::vector<NodeId> phis = header_phis(g_, cfg_, loop);
    size_t back = 1 - loop.entry_index;
    std::vector<NodeId> nodes = needed(loop_nodes(g_, cfg_, loop, chain, kBudget / 2), phis, back);
    if (nodes.empty()) return false;
    int k = 0;
    for (int c : {16, 8, 4, 2})
      if (*trips % c == 0 && nodes.size() * static_cast<size_t>(c) <= kBudget) {
        k = c;
        break;
      }
    if (k == 0) return false;
    NodeId latch = cfg_.blocks[loop.latches[0]];
    std::map<NodeId, NodeId> cur;  // header phi -> its value entering this copy
    for (NodeId phi : phis) cur[phi] = g_.node(phi).inputs[back];
    for (int copy_index = 1; copy_index < k; ++copy_index) cur = copy_body(g_, nodes, phis, back, cur, latch);
    copied_.insert(copied_.end(), nodes.begin(), nodes.end());
    copied_.insert(copied_.end(), phis.begin(), phis.end());
    for (NodeId phi : phis) g_.set_input(phi, back, cur[phi]);
    return true;
  }

  // Step 2: the nodes of `nodes` (in their order) that the phis' back
  // inputs or the body's effects reach through inputs inside `nodes`.
  std::vector<NodeId> needed(const std::vector<NodeId>& nodes, const std::vector<NodeId>& phis, size_t back) const {
    std::vector<uint8_t> in(g_.size(), 0), keep(g_.size(), 0);
    for (NodeId n : nodes) in[n] = 1;
    std::vector<NodeId> stack;
    auto reach = [&](NodeId n) {
      if (in[n] && !keep[n]) {
        keep[n] = 1;
        stack.push_back(n);
      }
    };
    for (NodeId phi : phis) reach(g_.node(phi).inputs[back]);
    for (NodeId n : nodes)
      if (must_run(g_, n)) reach(n);
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      for (NodeId i : g_.node(n).inputs) reach(i);
    }
    std::vector<NodeId> out;
    for (NodeId n : nodes)
      if (keep[n]) out.push_back(n);
    return out;
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
  LoopForest forest_;
  InvariantMemo memo_;  // shared by the loops' Scevs
  bool memset_ok_;
  std::vector<NodeId> copied_;
};

// Debug value bindings: the copies are not bound, so a variable bound to a
// copied node would keep showing the first copy's value through the
// others; its bindings are lost instead.
void lose_copied_bindings(Function& fn, const std::vector<NodeId>& copied) {
  if (fn.debug.binds.empty() || copied.empty()) return;
  std::vector<char> hit(fn.debug.vars.size(), 0);
  std::vector<char> is_copied(*std::max_element(copied.begin(), copied.end()) + 1, 0);
  for (NodeId n : copied) is_copied[n] = 1;
  for (const DebugBind& b : fn.debug.binds)
    if (b.value < is_copied.size() && is_copied[b.value] && b.var < hit.size()) hit[b.var] = 1;
  lose_debug_bindings(fn.debug, [&](uint32_t v) { return v < hit.size() && hit[v]; });
}

}  // namespace

size_t unroll_partial(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!has_loop_carried_phi(fn)) return 0;
  Graph g(fn, cache);
  PartialUnroll unroller(g, memset_idiom_possible(fn, header));
  size_t changes = unroller.run();
  lose_copied_bindings(fn, unroller.copied());
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
