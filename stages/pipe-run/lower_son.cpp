// lower_son.cpp - the son level: run the sea of nodes directly, ordering the
// work of each control point with a Kahn-style ready queue (seed 000).
//
// Control points are `start`, each `region` and each `proj` of an `if`: the
// nodes the format lets pinned nodes hang off. For each one we precompute,
// once per function, its "block program":
//   1. on entry, its phis (for a region) take the input that belongs to the
//      control edge just taken, all in parallel (every phi reads before any
//      is written: the interpreter copies through a scratch buffer);
//   2. then the pinned nodes hanging off it (memory operations, calls,
//      divisions) and the pure nodes they, the terminator and the phi
//      inputs of the outgoing edge need, found by walking inputs backwards
//      (explicit stack) and stopping at pinned nodes, phis and the values a
//      call sets up (constants, params, ...), which are read from the value
//      array as they are;
//   3. ordered as seed 000's phases 1 and 2 order an operation DAG: count
//      for each node its unsatisfied inputs inside the program (reference
//      counts), put the nodes with none in the ready queue, and repeatedly
//      take one (the lowest id, for a deterministic order), emit it and
//      decrement the counts of its users, which enter the queue at zero.
//      Memory adds one kind of edge the data edges do not show: a load must
//      run before the node that consumes the same memory state and produces
//      the next one (store, call, copy, volatile access), or it would see
//      the new state. A cycle left over is a graph whose memory cannot be
//      ordered, reported as an error;
//   4. last, the terminator hanging off it: `jump` (the edge into the region
//      that lists the jump), `if` (edges to its proj 0 / proj 1 control
//      points) or `return`. A proj that a region lists directly as a control
//      input ends with that edge. A control point with no way out, or an if
//      without one of its projs, ends with a runtime error if reached.
//
// Why recomputing pure nodes in each block that uses them is correct, loops
// included: the graph came from SSA, so every pure node p could be placed in
// a block X dominated by the definitions of its inputs and dominating its
// uses (a phi's input is used at the end of the predecessor). The value
// array holds, for each pinned node and phi, the value of its latest
// execution. At a use U of p, the latest execution of each input d of p
// happened before the latest execution of X: if d had run again after X, the
// trace from entry to d's first execution (which cannot pass X, since d
// dominates X) followed by the trace from that d to U would be a path to U
// avoiding X, contradicting X dominating U. So recomputing p at U reads the
// same inputs X's instance read: the value SSA means. In a loop this is the
// latest iteration's value, which is what a def dominating its use denotes;
// phis move values across the back edge in parallel, so a swap works.
//
// Pure nodes whose inputs are all set up when a call starts (constants,
// params, stack slots, symbol addresses) and that cannot fail (everything
// but shifts, whose amount may be out of range) are computed once, in the
// start's program, instead of in every block: a loop reusing a constant
// expression does not recompute it. The rest is recomputed per block; a long
// chain of pure nodes used in many blocks costs its length in each of them
// (the precomputation is the sum of the block programs' sizes).
//
// Departures from seed 000. The seed runs phase 1 (reference counts) and
// phase 2 (the ready queue) each time an operator is called; the graph of a
// function never changes, so we run them once per control point at load
// time and keep the order they produce, which is the order every execution
// would find. Constants are, as in the seed's phase 1, propagated without
// counting (here: preset in the activation's value array). The seed's
// blocked operations (a recursive call that cannot yield its outputs yet)
// do not arise: a call runs to completion on an explicit frame stack before
// its users become ready.
#include <algorithm>
#include <queue>

#include "run.h"

namespace pl::run {

namespace {

bool is_control_point(const Function& fn, NodeId n) {
  OpId op = fn.nodes[n].op;
  if (op == Op::Start || op == Op::Region) return true;
  if (op != Op::Proj || fn.nodes[n].inputs.size() != 1) return false;
  OpId branch = fn.nodes[fn.nodes[n].inputs[0]].op;
  return branch == Op::If || branch == Op::X64Jcc;
}

bool produces_memory(OpId op) {
  switch (op) {
    case Op::Store:
    case Op::StoreV:
    case Op::Copy:
    case Op::F80Arith:
    case Op::F80Unary:
    case Op::F80From:
    case Op::X64F80Arith:
    case Op::X64F80Unary:
    case Op::X64F80From:
    case Op::X64Fldt:
    case Op::X64Fstpt:
    case Op::V128Op:
    case Op::X64V128Op:
    case Op::X64V128Param:
    case Op::X64V128Ret:
    case Op::V128Store:
    case Op::X64V128Store:
    case Op::Call:
    case Op::LoadV:
    case Op::VaStart:
    case Op::VaArg:
    case Op::Alloca:
    case Op::StackSave:
    case Op::StackRestore:
    case Op::X64Alloca:
    case Op::X64StackSave:
    case Op::X64StackRestore:
    case Op::X64Store:
    case Op::X64StoreI:
    case Op::X64RepMovsb:
    case Op::X64Call:
    case Op::X64CallInd:
    case Op::X64LoadV:
    case Op::X64LoadSXV:
    case Op::X64LoadZXV:
    case Op::AtomicLoad:
    case Op::AtomicStore:
    case Op::AtomicRmw:
    case Op::AtomicCmpXchg:
    case Op::Fence:
    case Op::X64AtomicXchg:
    case Op::X64AtomicXadd:
    case Op::X64AtomicCmpXchg:
    case Op::X64AtomicLoop:
    case Op::X64AtomicOp:
    case Op::X64Fence: return true;
    default: return false;
  }
}

// Loads that read a memory state without producing one.
bool reads_memory_only(OpId op) {
  if (x64::is_memory_operand_form(op)) return true;  // a folded load
  return op == Op::Load || op == Op::X64Load || op == Op::X64LoadSX || op == Op::X64LoadZX || op == Op::F80Cmp ||
         op == Op::F80To || op == Op::X64F80Cmp || op == Op::X64F80To || op == Op::V128Load || op == Op::X64V128Load;
}

struct Target {
  NodeId region = kNone;
  uint32_t index = 0;
};

class SonLowering {
 public:
  SonLowering(const Program& program, const Function& fn, uint32_t index) : b_(program, fn, index), fn_(fn) {}

  CompiledFunction run() {
    fold_constants();
    number_control_points();
    group_pinned_nodes();
    find_region_inputs();
    find_invariants();
    b_.reserve_blocks(static_cast<uint32_t>(points_.size()));
    for (uint32_t k = 0; k < points_.size(); ++k)
      if (points_[k] != start_) lower_point(k);
    lower_point(block_of_[start_]);
    b_.set_entry(block_of_[start_]);
    return b_.take();
  }

 private:
  uint32_t count() const { return static_cast<uint32_t>(fn_.nodes.size()); }
  const Node& node(NodeId n) const { return fn_.nodes[n]; }
  bool has_flag(NodeId n, uint32_t flag) const { return node(n).op < kNumOps && op_info(node(n).op).has(flag); }

  void number_control_points() {
    block_of_.assign(count(), kNone);
    for (NodeId n = 0; n < count(); ++n) {
      if (!is_control_point(fn_, n)) continue;
      if (node(n).op == Op::Start) {
        if (start_ != kNone) b_.fail(n, "a second start (the first is " + node_name(start_) + ")");
        start_ = n;
      }
      block_of_[n] = static_cast<uint32_t>(points_.size());
      points_.push_back(n);
    }
    if (start_ == kNone) b_.fail(0, "the function has no start");
  }

  // Phis, terminators and other pinned nodes by control point (CSR, in id
  // order).
  void group_pinned_nodes() {
    terminator_.assign(points_.size(), kNone);
    std::vector<uint32_t> phi_count(points_.size() + 1, 0), pinned_count(points_.size() + 1, 0);
    auto classify = [&](NodeId n, bool fill) {
      const Node& nd = node(n);
      if (nd.op == Op::Region || nd.op == Op::Start || nd.control.empty() || b_.is_preset(n)) return;
      NodeId c = nd.control[0];
      uint32_t k = block_of_[c];
      if (nd.control.size() != 1 || k == kNone)
        b_.fail(n, "a pinned node's control input must be a start, a region or a proj of an if");
      if (nd.op == Op::Phi || nd.op == Op::SsaPhi) {
        if (node(c).op != Op::Region) b_.fail(n, "a phi's control input must be a region");
        if (fill) phis_[phi_start_[k] + phi_count[k]] = n;
        ++phi_count[k];
      } else if (has_flag(n, TERMINATOR)) {
        if (!fill && terminator_[k] != kNone)
          b_.fail(n, node_name(c) + " already ends with " + node_name(terminator_[k]));
        terminator_[k] = n;
      } else {
        if (fill) pinned_[pinned_start_[k] + pinned_count[k]] = n;
        ++pinned_count[k];
      }
    };
    for (NodeId n = 0; n < count(); ++n) classify(n, false);
    auto prefix = [&](std::vector<uint32_t>& counts, std::vector<uint32_t>& starts, std::vector<NodeId>& items) {
      starts.assign(points_.size() + 1, 0);
      for (size_t k = 0; k < points_.size(); ++k) starts[k + 1] = starts[k] + counts[k];
      items.assign(starts.back(), kNone);
      std::fill(counts.begin(), counts.end(), 0);
    };
    prefix(phi_count, phi_start_, phis_);
    prefix(pinned_count, pinned_start_, pinned_);
    for (NodeId n = 0; n < count(); ++n) classify(n, true);
  }

  std::span<const NodeId> phis_of(uint32_t k) const {
    return {phis_.data() + phi_start_[k], phi_start_[k + 1] - phi_start_[k]};
  }
  std::span<const NodeId> pinned_of(uint32_t k) const {
    return {pinned_.data() + pinned_start_[k], pinned_start_[k + 1] - pinned_start_[k]};
  }

  // Which region control input each jump and each proj feeds.
  void find_region_inputs() {
    target_.assign(count(), Target{});
    for (NodeId r = 0; r < count(); ++r) {
      if (node(r).op != Op::Region) continue;
      const ControlList& ctrl = node(r).control;
      for (uint32_t i = 0; i < ctrl.size(); ++i) {
        NodeId c = ctrl[i];
        bool edge = node(c).op == Op::Jump || (node(c).op == Op::Proj && block_of_[c] != kNone);
        if (!edge) b_.fail(r, "control input " + node_name(c) + " is neither a jump nor a proj of an if");
        if (target_[c].region != kNone)
          b_.fail(c, "leads into two places: " + node_name(target_[c].region) + " and " + node_name(r));
        target_[c] = {r, i};
      }
    }
  }

  // The node a dependency on input u waits for: a proj of a call or volatile
  // load is ready when its tuple node has run.
  NodeId producer(NodeId u) const {
    return node(u).op == Op::Proj && b_.is_preset(u) ? node(u).inputs[0] : u;
  }

  // Seed 000's phase 1 propagates constants without counting them: here
  // every pure or dividing node whose inputs are all constants is evaluated
  // once, with eval_pure() (common/ir/eval.h), and becomes a constant itself
  // (inputs first: a depth-first walk with an explicit stack). A node that
  // would fail (a division by zero, a shift out of range) is left alone and
  // fails at run time, if it runs.
  void fold_constants() {
    auto foldable = [&](NodeId n) { return node(n).op < kNumOps && eval_class(node(n).op) != EvalClass::None; };
    std::vector<uint8_t> state(count(), 0);  // 0 new, 1 on the stack, 2 done
    std::vector<std::pair<NodeId, uint32_t>> stack;
    std::vector<uint64_t> args;
    for (NodeId root = 0; root < count(); ++root) {
      if (state[root] || !foldable(root)) continue;
      stack.push_back({root, 0});
      state[root] = 1;
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        if (next < node(n).inputs.size()) {
          NodeId u = node(n).inputs[next++];
          if (state[u] == 0 && foldable(u)) {
            state[u] = 1;
            stack.push_back({u, 0});
          }
          continue;
        }
        NodeId done = n;
        stack.pop_back();
        state[done] = 2;
        if (b_.is_preset(done)) continue;
        args.clear();
        for (NodeId u : node(done).inputs) {
          if (!b_.is_constant(u)) break;
          args.push_back(b_.constant_value(u));
        }
        if (args.size() != node(done).inputs.size()) continue;
        const LiteralList& lits = node(done).literals;
        if (std::optional<uint64_t> v = eval_pure(node(done).op, {lits.data(), lits.size()}, args, nullptr))
          b_.fold(done, *v);
      }
    }
  }

  // Pure nodes that depend only on preset values and cannot fail: computed
  // once in the start's program (see the header comment). Depth-first with
  // an explicit stack of (node, next input).
  void find_invariants() {
    invariant_.assign(count(), 0);  // 0 unvisited, 1 yes, 2 no, 3 on the stack
    std::vector<std::pair<NodeId, uint32_t>> stack;
    for (NodeId root = 0; root < count(); ++root) {
      if (invariant_[root] || !floats(root)) continue;
      stack.push_back({root, 0});
      invariant_[root] = 3;
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        const InputList& inputs = node(n).inputs;
        if (next < inputs.size()) {
          NodeId u = producer(inputs[next++]);
          if (floats(u) && invariant_[u] == 3) b_.fail(u, "pure nodes form a cycle through " + node_name(n));
          if (floats(u) && invariant_[u] == 0) {
            invariant_[u] = 3;
            stack.push_back({u, 0});
          }
          continue;
        }
        bool ok = eval_class(node(n).op) != EvalClass::Shift;
        for (NodeId input : inputs) {
          NodeId u = producer(input);
          bool preset_value = b_.is_preset(u) && node(u).op != Op::Proj;
          if (!preset_value && !(floats(u) && invariant_[u] == 1)) ok = false;
        }
        invariant_[n] = ok ? 1 : 2;
        stack.pop_back();
      }
    }
  }

  // Pure nodes that are computed by a block program (not preset, not
  // pinned, not phis).
  bool floats(NodeId n) const {
    return !b_.is_preset(n) && node(n).control.empty() && node(n).op != Op::Phi && node(n).op != Op::SsaPhi &&
           !is_control_point(fn_, n);
  }

  // Collects the program of control point k into program_ (unordered): its
  // pinned nodes, and the pure nodes they and `values` (the terminator's and
  // the outgoing phis' inputs) need.
  void collect(uint32_t k, std::span<const NodeId> pinned, std::span<const NodeId> values) {
    ++epoch_;
    program_.clear();
    std::vector<NodeId> stack;
    auto visit = [&](NodeId n) {
      if (mark_[n] == epoch_) return;
      mark_[n] = epoch_;
      program_.push_back(n);
      stack.push_back(n);
    };
    auto visit_input = [&](NodeId u) {
      u = producer(u);  // a proj of a pure tuple (x64:mul1) needs the tuple node
      if (!floats(u)) return;
      if (invariant_[u] == 1 && points_[k] != start_) {
        needed_invariants_.push_back(u);
        return;
      }
      visit(u);
    };
    for (NodeId n : pinned) visit(n);
    for (NodeId u : values) visit_input(u);
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      for (NodeId u : node(n).inputs) visit_input(u);
    }
  }

  // Kahn's algorithm over program_ (seed 000, phases 1 and 2), emitting in
  // ready order, lowest id first.
  void emit_in_kahn_order(NodeId point) {
    size_t size = program_.size();
    std::sort(program_.begin(), program_.end());
    auto local = [&](NodeId n) -> uint32_t {
      NodeId p = producer(n);
      if (mark_[p] != epoch_) return kNone;
      return static_cast<uint32_t>(std::lower_bound(program_.begin(), program_.end(), p) - program_.begin());
    };
    std::vector<uint32_t> waiting(size, 0);
    std::vector<std::pair<uint32_t, uint32_t>> edges;  // (from, to) local indexes
    for (uint32_t i = 0; i < size; ++i)
      for (NodeId u : node(program_[i]).inputs)
        if (uint32_t j = local(u); j != kNone) edges.push_back({j, i});
    add_memory_order(edges);
    std::sort(edges.begin(), edges.end());
    std::vector<uint32_t> first(size + 1, 0);
    for (auto& e : edges) ++first[e.first + 1], ++waiting[e.second];
    for (size_t i = 0; i < size; ++i) first[i + 1] += first[i];
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < size; ++i)
      if (waiting[i] == 0) ready.push(i);
    size_t emitted = 0;
    while (!ready.empty()) {
      uint32_t i = ready.top();
      ready.pop();
      b_.emit(program_[i]);
      ++emitted;
      for (uint32_t e = first[i]; e < first[i + 1]; ++e)
        if (--waiting[edges[e].second] == 0) ready.push(edges[e].second);
    }
    if (emitted != size) {
      uint32_t stuck = 0;
      while (waiting[stuck] == 0) ++stuck;
      b_.fail(program_[stuck], "the nodes hanging off " + node_name(point) +
                                   " cannot be ordered: they wait on each other (a load reads a memory state that "
                                   "a node it depends on replaces)");
    }
  }

  // A load must run before the node that consumes its memory state and
  // produces the next one.
  void add_memory_order(std::vector<std::pair<uint32_t, uint32_t>>& edges) const {
    std::vector<std::pair<uint32_t, uint32_t>> readers, writers;  // (memory value, local index)
    for (uint32_t i = 0; i < program_.size(); ++i) {
      const Node& nd = node(program_[i]);
      if (nd.inputs.empty()) continue;
      if (reads_memory_only(nd.op)) readers.push_back({b_.value(nd.inputs[0]), i});
      else if (produces_memory(nd.op)) writers.push_back({b_.value(nd.inputs[0]), i});
    }
    if (readers.empty() || writers.empty()) return;
    std::sort(writers.begin(), writers.end());
    for (auto [memory, reader] : readers) {
      auto it = std::lower_bound(writers.begin(), writers.end(), std::make_pair(memory, uint32_t{0}));
      for (; it != writers.end() && it->first == memory; ++it) edges.push_back({reader, it->second});
    }
  }

  void lower_point(uint32_t k) {
    NodeId point = points_[k];
    NodeId term = terminator_[k];
    Target exit = target_[point];
    if (term != kNone && exit.region != kNone)
      b_.fail(point, "ends with " + node_name(term) + " and is also a control input of " + node_name(exit.region));
    if (term != kNone && node(term).op == Op::Jump) exit = target_[term];

    std::vector<NodeId> roots;
    if (term != kNone) roots.assign(node(term).inputs.begin(), node(term).inputs.end());
    if (exit.region != kNone)
      for (NodeId phi : phis_of(block_of_[exit.region]))
        if (exit.index < node(phi).inputs.size()) roots.push_back(node(phi).inputs[exit.index]);
    if (point == start_) {
      std::sort(needed_invariants_.begin(), needed_invariants_.end());
      needed_invariants_.erase(std::unique(needed_invariants_.begin(), needed_invariants_.end()),
                               needed_invariants_.end());
      roots.insert(roots.end(), needed_invariants_.begin(), needed_invariants_.end());
    }
    if (mark_.empty()) mark_.assign(count(), 0);
    collect(k, pinned_of(k), roots);

    b_.start_block(k, point);
    emit_in_kahn_order(point);
    if (term != kNone && has_flag(term, BRANCH)) {
      b_.emit_branch(term, branch_edge(term, 0), branch_edge(term, 1));
    } else if (term != kNone && (node(term).op == Op::Return || node(term).op == Op::X64Ret)) {
      b_.emit_return(term);
    } else if (exit.region != kNone) {
      uint32_t target = block_of_[exit.region];
      b_.emit_jump(term != kNone ? term : point, b_.add_edge(target, phis_of(target), exit.index));
    } else if (term != kNone) {
      b_.emit_trap(term, "jump " + node_name(term) + " leads into no region");
    } else {
      b_.emit_trap(point, "control reaches " + node_name(point) + ", which has no terminator");
    }
    b_.finish_block(k);
  }

  uint32_t branch_edge(NodeId term, uint32_t side) {
    NodeId proj = b_.proj_of(term, side);
    if (proj == kNone)
      return b_.add_edge(b_.trap_block(term, std::string("the ") + (side ? "false" : "true") + " side of " +
                                                 node_name(term) + " has no proj " + std::to_string(side)),
                         {}, 0);
    return b_.add_edge(block_of_[proj], {}, 0);
  }

  FunctionBuilder b_;
  const Function& fn_;
  NodeId start_ = kNone;
  std::vector<NodeId> points_;       // control points, by block index
  std::vector<uint32_t> block_of_;   // node -> block index (control points)
  std::vector<NodeId> terminator_;   // per block
  std::vector<uint32_t> phi_start_, pinned_start_;
  std::vector<NodeId> phis_, pinned_;
  std::vector<Target> target_;       // jump / proj -> (region, control index)
  std::vector<uint8_t> invariant_;
  std::vector<NodeId> needed_invariants_;
  std::vector<uint32_t> mark_;
  uint32_t epoch_ = 0;
  std::vector<NodeId> program_;
};

}  // namespace

CompiledFunction lower_son_function(const Program& program, const Function& fn, uint32_t index) {
  return SonLowering(program, fn, index).run();
}

}  // namespace pl::run
