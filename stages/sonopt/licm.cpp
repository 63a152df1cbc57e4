// licm.cpp - loop-invariant code motion of loads and pure calls: a `load`
// whose address does not change in a loop and whose bytes no store of the
// loop may write runs once, before the loop; so does a call to a pure
// function whose arguments do not change.
//
// In the sea of nodes a load is pinned (a control input) and reads a memory
// state. son2cfg's global code motion already takes pure nodes out of
// loops; a load stays in its block, and its memory input inside a loop is
// derived from the header's memory phi. This pass, for each simple loop
// (loops.h: a header region with one entry edge; inner loops first, so a
// load taken out of an inner loop can leave the outer one too) and each
// plain `load` pinned in it:
//  1. the address must be loop-invariant (loops.h: its floating input
//     chains reach only nodes pinned outside the loop);
//  2. when the load's memory state is produced inside the loop, no node of
//     the loop may write its bytes: stores, volatile accesses and copies are
//     compared with alias.h (base objects and constant offsets; different
//     underlying objects, whatever the offsets, never alias), and calls,
//     va_arg and va_start count as writing everything except a private stack
//     slot. The memory input then becomes the state entering the loop: the
//     walk up the memory chain (stores, call projs, phis of regions inside
//     the loop) to the first state made outside it - equal, in the load's
//     bytes, to every state inside the loop;
//  3. it must not trap where the original would not have run (decision:
//     hoist only what provably runs anyway, never guard or rotate):
//     - the address is a stack slot or a data item of this module at a
//       constant offset with the access inside the object (such a load
//       never traps, so running it more often is harmless); or
//     - the load runs in the loop's first iteration whenever the loop is
//       entered: its block is the header, or the header's exit test is
//       false on entry (loops.h eval_on_entry: the header phis' entry values
//       make the condition a constant that stays in the loop, as in
//       `for (k = 0; k < 160; k++)`), the block dominates every latch and
//       every exiting block but the header, and the part of the loop it
//       does not strictly dominate holds no call (which might not return)
//       and no inner loop header (which might not terminate).
//     A load inside `for (i = 0; i < n; i++)` through an unknown pointer with
//     an unknown n stays: gcc rotates the loop into a guarded do-while first;
//     we have no loop rotation yet.
// The load is then pinned to the preheader's control point; son2cfg keeps
// it there. Volatile loads never move (they are not `load`s).
// Calls to pure functions (const_call.cpp: no memory access at all, only
// calls to pure functions) with loop-invariant arguments move the same way,
// under the first-iteration rule only (a pure function may trap or not
// return): the users of its memory result read its old memory input (it
// writes nothing), and it joins the memory chain between the state entering
// the loop and the header's memory phi (the chain stays one chain, as
// pipe-run and the back end require). A pure call
// is no writer for the loads (it writes no memory). Purity is a fact about
// the whole module, so this pass takes the module (one function at a time).
//
// Paper: the classic loop-invariant code motion (Aho, Sethi, Ullman, 10.7)
// under the safety rule of "Lazy Code Motion" (Knoop, Ruething, Steffen,
// PLDI 1992: no computation on a path that did not have it), over the sea
// of nodes as in Click's "Global Code Motion" (PLDI 1995), where the memory
// edge is what pins a load below the stores it may see.
// Invariants needed: the son contract. Kept: the son contract (the new
// control input is a block's control point; the address and the new memory
// input are defined in blocks that dominate the preheader, since they come
// from outside the loop and reach its header); no load is moved past a
// store, call or copy that may write its bytes; volatile accesses untouched.
#include <algorithm>
#include <set>
#include <string>

#include "alias.h"
#include "loops.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

bool writes_memory(OpId op) {
  return op == Op::Store || op == Op::StoreV || op == Op::LoadV || op == Op::Copy || op == Op::Call ||
         op == Op::VaArg || op == Op::VaStart || op == Op::Alloca || op == Op::StackSave || op == Op::StackRestore ||
         op == Op::Asm || op == Op::F80Arith || op == Op::F80Unary || op == Op::F80From || op == Op::V128Op ||
         op == Op::V128Store || is_atomic(op);
}

using PureNames = std::set<std::string, std::less<>>;

class Licm {
 public:
  Licm(Graph& g, const ModuleHeader& header, const PureNames& pure)
      : g_(g), header_(header), pure_(pure), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), forest_(find_loops(g, cfg_)),
        pinned_(cfg_.blocks.size()) {
    if (forest_.loops.empty()) return;
    for (NodeId n = 0; n < g_.size(); ++n) {
      if (!g_.alive(n) || !g_.has(n, PINNED) || g_.node(n).control.empty()) continue;
      uint32_t b = cfg_.block_of_node(g_, n);
      if (b != DomTree::kNone) pinned_[b].push_back(n);
    }
  }

  size_t run() {
    size_t changes = 0;
    for (const Loop& loop : forest_.loops)
      if (loop.simple()) changes += hoist_from(loop);
    return changes;
  }

 private:
  size_t hoist_from(const Loop& loop) {
    std::vector<NodeId> movable, writers;
    for (uint32_t b : loop.blocks)
      for (NodeId n : pinned_[b]) {
        if (cfg_.block_of_node(g_, n) != b) continue;  // hoisted from here
        if (g_.op(n) == Op::Load || pure_call(n)) movable.push_back(n);
        if (g_.op(n) != Op::Load && writes_memory(g_.op(n)) && !pure_call(n)) writers.push_back(n);
      }
    std::sort(movable.begin(), movable.end());
    memo_.clear();
    std::optional<bool> stays_on_entry;
    size_t changes = 0;
    // To a fixpoint: a load (or pure call) leaving the loop can make the
    // address or argument of another one invariant, whatever their order
    // (ids say nothing about dependence), so the candidates left run again
    // until a sweep moves none: one application does all it can, and a
    // second sonopt finds nothing more.
    for (size_t moved = 1; moved != 0;) {
      moved = 0;
      std::vector<NodeId> left;
      for (NodeId n : movable) {
        if (hoist(loop, n, writers, stays_on_entry))
          ++moved;
        else
          left.push_back(n);
      }
      movable.swap(left);
      changes += moved;
    }
    return changes;
  }

  // Moves load or pure call n to the loop's preheader if it may go there.
  bool hoist(const Loop& loop, NodeId n, const std::vector<NodeId>& writers, std::optional<bool>& stays_on_entry) {
    if (g_.op(n) == Op::Call) return hoist_call(loop, n, stays_on_entry);
    NodeId load = n;
    const Node& ld = g_.node(load);
    if (!loop_invariant(g_, cfg_, loop, ld.inputs[1], memo_)) return false;
    NodeId mem = ld.inputs[0];
    if (defined_in(loop, mem)) {
      if (!no_writer_aliases(load, writers)) return false;
      mem = state_entering(loop, mem);
      if (mem == kNone) return false;
    }
    if (!never_traps(load) && !runs_first_iteration(loop, load, stays_on_entry)) return false;
    g_.set_input(load, 0, mem);
    g_.set_control(load, 0, loop.preheader_node);
    pinned_[loop.preheader].push_back(load);
    memo_.clear();  // a load now outside makes more addresses invariant
    return true;
  }

  const AliasAnalysis& aa() const {
    if (!aa_storage_) aa_storage_.emplace(g_);
    return *aa_storage_;
  }

  // A call of a pure function of this module (const_call.cpp).
  bool pure_call(NodeId n) const {
    if (g_.op(n) != Op::Call) return false;
    const Node& callee = g_.node(g_.node(n).inputs[1]);
    return callee.op == Op::SymAddr && pure_.count(callee.literals[0].as_string()) != 0;
  }

  // A pure call with loop-invariant arguments that runs in the first
  // iteration moves to the preheader: it reads and writes no memory, so its
  // memory result's users read its memory input instead, and it reads the
  // state entering the loop.
  bool hoist_call(const Loop& loop, NodeId call, std::optional<bool>& stays_on_entry) {
    const Node& nd = g_.node(call);
    for (size_t i = 1; i < nd.inputs.size(); ++i)
      if (!loop_invariant(g_, cfg_, loop, nd.inputs[i], memo_)) return false;
    if (!runs_first_iteration(loop, call, stays_on_entry)) return false;
    NodeId mem = nd.inputs[0];
    NodeId entering = defined_in(loop, mem) ? state_entering(loop, mem) : mem;
    if (entering == kNone) return false;
    // The memory chain stays one chain: the call goes between the state
    // entering the loop and the header's memory phi.
    std::vector<NodeId> entry_phis;
    for (NodeId phi : header_phis(g_, cfg_, loop))
      if (g_.node(phi).inputs[loop.entry_index] == entering) entry_phis.push_back(phi);
    NodeId proj = kNone;
    for (NodeId u : g_.users(call))
      if (g_.op(u) == Op::Proj && g_.node(u).literals[0].as_int() == 0) proj = std::min(proj, u);
    if (entry_phis.empty() || proj == kNone) return false;
    g_.replace_uses(proj, mem);  // the loop's chain skips the call
    g_.set_input(call, 0, entering);
    g_.set_control(call, 0, loop.preheader_node);
    for (NodeId phi : entry_phis) g_.set_input(phi, loop.entry_index, proj);
    pinned_[loop.preheader].push_back(call);
    memo_.clear();
    return true;
  }

  // Whether memory state n is made in the loop (a proj by its tuple).
  bool defined_in(const Loop& loop, NodeId n) const {
    if (g_.op(n) == Op::Proj && !is_control_point(g_, n)) n = g_.node(n).inputs[0];
    if (g_.node(n).control.empty()) return false;
    uint32_t b = cfg_.block_of_node(g_, n);
    return b != DomTree::kNone && loop.contains(b);
  }

  bool no_writer_aliases(NodeId load, const std::vector<NodeId>& writers) const {
    NodeId address = g_.node(load).inputs[1];
    Address addr = aa().decompose(address);
    uint64_t size = access_size(g_.node(load));
    for (NodeId w : writers) {
      const Node& nd = g_.node(w);
      bool has_address = nd.op == Op::Store || nd.op == Op::StoreV || nd.op == Op::LoadV || nd.op == Op::Copy;
      if (has_address && aa().distinct_objects(nd.inputs[1], address))
        continue;
      switch (nd.op) {
        case Op::Store: case Op::StoreV: case Op::LoadV:
          if (aa().alias(aa().decompose(nd.inputs[1]), access_size(nd), addr, size) != Alias::No) return false;
          break;
        case Op::Copy:
          if (aa().private_slot(addr.base)) break;
          if (aa().alias(aa().decompose(nd.inputs[1]), static_cast<uint64_t>(nd.literals[0].as_int()), addr, size) !=
              Alias::No)
            return false;
          break;
        default:  // call, va_arg, va_start, the dynamic stack (alloca, stacksave, stackrestore), asm (which
                  // touches only what escaped)
          if (!aa().private_slot(addr.base)) return false;
      }
    }
    return true;
  }

  // The memory state entering the loop that state m (made inside it)
  // derives from, or kNone.
  NodeId state_entering(const Loop& loop, NodeId m) const {
    NodeId region = cfg_.blocks[loop.header];
    for (NodeId steps = 0; steps <= g_.size() && defined_in(loop, m); ++steps) {
      const Node& nd = g_.node(m);
      switch (nd.op) {
        case Op::Phi:
          m = nd.control[0] == region ? nd.inputs[loop.entry_index] : forward_input(m);
          break;
        case Op::Store: case Op::StoreV: case Op::Copy: case Op::VaStart:
          m = nd.inputs[0];
          break;
        case Op::Proj:
          if (nd.literals[0].as_int() != 0) return kNone;
          m = g_.node(nd.inputs[0]).inputs[0];
          break;
        default:
          return kNone;
      }
    }
    return defined_in(loop, m) ? kNone : m;
  }

  // The input of phi m on the first edge into its region that is no back
  // edge (for an inner loop's header: its entry), else input 0.
  NodeId forward_input(NodeId m) const {
    const Node& nd = g_.node(m);
    NodeId region = nd.control[0];
    uint32_t rb = cfg_.block_of[region];
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      uint32_t from = LoopForest::edge_source(g_, cfg_, g_.node(region).control[i]);
      if (from != DomTree::kNone && cfg_.reachable(from) && !cfg_.dom.dominates(rb, from)) return nd.inputs[i];
    }
    return nd.inputs[0];
  }

  // A stack slot or a data item of this module, read inside its bounds.
  bool never_traps(NodeId load) const {
    Address addr = aa().decompose(g_.node(load).inputs[1]);
    if (addr.base == kNone || addr.offset < 0) return false;
    uint64_t end = static_cast<uint64_t>(addr.offset) + access_size(g_.node(load));
    const Node& base = g_.node(addr.base);
    if (base.op == Op::StackSlot) return end <= static_cast<uint64_t>(base.literals[0].as_int());
    std::string_view name = base.literals[0].as_string();
    for (const DataItem& d : header_.data)
      if (d.name == name) return end <= d.size;
    return false;
  }

  bool runs_first_iteration(const Loop& loop, NodeId load, std::optional<bool>& stays_on_entry) const {
    uint32_t b = cfg_.block_of_node(g_, load);
    if (b != loop.header) {
      if (!stays_on_entry) stays_on_entry = header_stays_on_entry(loop);
      if (!*stays_on_entry) return false;
    }
    for (uint32_t l : loop.latches)
      if (!cfg_.dom.dominates(b, l)) return false;
    for (uint32_t x : loop.blocks) {
      bool after = x != b && cfg_.dom.dominates(b, x);
      if (after) continue;
      if (x != loop.header && std::any_of(cfg_.graph.succs[x].begin(), cfg_.graph.succs[x].end(),
                                          [&](uint32_t s) { return !loop.contains(s); }))
        return false;
      if (x != loop.header && inner_header(loop, x)) return false;
      if (holds_call(x, load)) return false;
    }
    return true;
  }

  bool header_stays_on_entry(const Loop& loop) const {
    NodeId t = cfg_.terminator[loop.header];
    if (t == kNone) return false;
    if (g_.op(t) == Op::Jump) return true;
    if (g_.op(t) != Op::If) return false;
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    if (!test) {  // both sides stay in the loop
      const std::vector<uint32_t>& succs = cfg_.graph.succs[loop.header];
      return std::all_of(succs.begin(), succs.end(), [&](uint32_t s) { return loop.contains(s); });
    }
    std::optional<uint64_t> v = eval_on_entry(g_, cfg_, loop, test->cond);
    return v && (*v != 0) == test->stays_on_true;
  }

  bool inner_header(const Loop& loop, uint32_t x) const {
    for (uint32_t p : cfg_.graph.preds[x])
      if (loop.contains(p) && cfg_.reachable(p) && cfg_.dom.dominates(x, p)) return true;
    return false;
  }

  // Whether the block holds a call (which might not return) other than
  // `except`.
  bool holds_call(uint32_t block, NodeId except) const {
    for (NodeId u : g_.users(cfg_.blocks[block]))
      if (u != except && g_.alive(u) && g_.node(u).control[0] == cfg_.blocks[block] &&
          (g_.op(u) == Op::Call || g_.op(u) == Op::VaArg || g_.op(u) == Op::Asm))
        return true;
    return false;
  }

  Graph& g_;
  const ModuleHeader& header_;
  const PureNames& pure_;
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
  LoopForest forest_;
  mutable std::optional<AliasAnalysis> aa_storage_;  // built on first use (escape analysis of every slot)
  std::vector<std::vector<NodeId>> pinned_;  // block -> the pinned nodes placed there (hoisted ones too)
  InvariantMemo memo_;
};

}  // namespace

// What licm does to a function depends on the function and on which
// functions are pure: a function unchanged since the last application, in a
// module whose pure functions are the same, is skipped.
size_t licm(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope) {
  PureNames pure = pure_function_names(fns, header);
  return scope.change_each(fns.size(), fingerprint(pure), [&](size_t f) -> size_t {
    if (!has_loop_carried_phi(fns[f])) return 0;
    Graph g(fns[f], scope.cache(f));
    size_t changes = Licm(g, header, pure).run();
    g.finish();
    return changes;
  });
}

}  // namespace pl::sonopt
