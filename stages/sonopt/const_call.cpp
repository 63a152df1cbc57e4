// const_call.cpp - compile-time evaluation of calls to pure functions with
// constant arguments (seed 000: an instantiation cache keyed by a hash of the
// inputs, and cooperative evaluation of operation DAGs in Kahn order with
// blocked recursive calls).
//
// Algorithm (one application = one sweep over the module's call sites):
//  1. Purity, over the whole module: a function is pure when its graph holds
//     only control (start, region, if, jump, proj, return), phis, params,
//     entrymem, constants, `undefined`, the pure and dividing opcodes of
//     common/ir/eval.h, and calls whose callee is `symaddr` of a pure function
//     defined here (symaddr used any other way, memory accesses of any kind,
//     stack slots, volatile accesses, copies, indirect calls and calls to
//     externs such as printf - I/O - make it impure). Computed as a greatest
//     fixpoint: start from the functions that are pure on their own, drop
//     those calling a dropped one, until nothing changes. (No memory at all,
//     so no store of any kind: private slots that scalar-replace turned into
//     values are fine, a slot it could not take makes the function impure.)
//  2. Each call to a pure function whose arguments are all `const` nodes of
//     the parameters' types is evaluated by an Evaluator shared by the whole
//     application. Its cache maps (callee, arguments) - hashed - to an entry:
//     running, done (with the result) or failed. Evaluation is seed 000's
//     cooperative Kahn scheduling, with control flow: an activation of a
//     function works one control point at a time; entering one it counts,
//     for each node of the point's program (its pinned calls and divisions
//     and the pure nodes they, the terminator and the outgoing phis need,
//     found as pipe-run's son lowering finds them), its unsatisfied inputs
//     (phase 1: the reference counts; constants, params and values of
//     earlier points are already there), puts those with none in the ready
//     queue, and runs them (phase 2: each run decrements its users' counts).
//     A call looks its entry up: done - the value is there at once; absent -
//     a new entry and activation start, and the call is blocked on it;
//     running (a recursive call still being evaluated) - blocked on it too.
//     The activation goes on with whatever else is ready; when nothing is,
//     and calls are blocked, it waits. When an entry's activation reaches a
//     `return`, the entry is done, and every call blocked on it is resumed
//     (phase 3): its value propagates and its activation is runnable again.
//     When every ready queue is empty the requested entry is done, or the
//     remaining entries wait on each other (a call to itself with the same
//     arguments: a real infinite recursion) and the evaluation fails.
//  3. A call whose entry is done is replaced: its value proj by a `const` of
//     the result, its memory proj by its memory input (a pure function
//     neither reads nor writes memory); the call goes. Calls are evaluated
//     for the whole module before any is replaced (the evaluator reads the
//     functions as they were). Internal functions no longer named anywhere
//     are dropped (inline.cpp's drop_unreferenced).
// Bounds (compile time stays bounded): every node run and every control
// point entered is a step; one top-level evaluation may take kCallSteps,
// one application kModuleSteps; the live activations may hold at most
// kLiveNodes nodes between them (recursion depth), and one application
// makes at most kMaxEntries cache entries (memory). An evaluation over its
// budget fails, and so does any that meets what would be a runtime error
// (division by zero, shift out of range, an undefined value used by anything
// but a phi, a path that leads nowhere): the call stays, and the program
// does at run time whatever it does. A failed entry is cached as failed;
// entries still running when an evaluation fails are marked failed too.
//
// The meaning of every node is common/ir/eval.h's (eval_pure, check_division):
// folding is interpreting, never a second copy.
//
// Invariants needed: the son contract in every function. Kept: the son
// contract (a call is a pinned node with no users besides its projs; its
// memory proj's users now read the call's memory input, which dominates
// them).
//
// Departures from seed 000: the seed's operator body is a DAG; a C function
// has control flow, so the phases run per control point entered (as pipe-run
// does, and with the same argument for why recomputing a pure node in each
// point that needs it gives the SSA value, see stages/pipe-run/lower_son.cpp).
// The seed's blocked operations resume when the entry they wait for
// finishes; a call to an entry that never finishes (same callee, same
// arguments) is a C program that never returns, so the evaluation fails
// instead of waiting forever.
#include <algorithm>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>

#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr uint64_t kCallSteps = 1'000'000;     // one top-level call site
constexpr uint64_t kModuleSteps = 4'000'000;   // one pass application
constexpr uint64_t kLiveNodes = 1'000'000;     // nodes of the live activations
constexpr size_t kMaxEntries = 100'000;        // cache entries in one application

using Names = std::map<std::string, size_t, std::less<>>;

// The defined function a `symaddr` names, or npos.
size_t function_named(const Node& symaddr, const Names& index) {
  if (symaddr.op != Op::SymAddr) return std::string::npos;
  auto it = index.find(symaddr.literals[0].as_string());
  return it == index.end() ? std::string::npos : it->second;
}

bool is_pure_op(OpId op) {
  switch (op) {
    case Op::Start: case Op::Region: case Op::If: case Op::Jump: case Op::Proj: case Op::Return:
    case Op::Phi: case Op::Param: case Op::EntryMem: case Op::Undef: case Op::Call: case Op::SymAddr:
      return true;
    default:
      return op < kNumOps && eval_class(op) != EvalClass::None;
  }
}

// Step 1 of the header: the pure functions of the module.
std::vector<bool> pure_functions(const std::vector<Function>& fns, const Names& index) {
  std::vector<bool> pure(fns.size(), true);
  std::vector<std::vector<size_t>> callees(fns.size());
  for (size_t f = 0; f < fns.size(); ++f) {
    const Function& fn = fns[f];
    // A weak definition may be replaced at link time by another body.
    if (fn.signature.variadic || fn.attrs.weak) pure[f] = false;
    // A symaddr may only ever be a callee (never a value: a pointer
    // compared, stored or returned): count its uses and its callee uses.
    std::vector<uint32_t> uses(fn.nodes.size(), 0), callee_uses(fn.nodes.size(), 0);
    for (const Node& nd : fn.nodes) {
      if (!is_pure_op(nd.op)) pure[f] = false;
      for (NodeId in : nd.inputs) ++uses[in];
      if (nd.op != Op::Call) continue;
      size_t c = function_named(fn.nodes[nd.inputs[1]], index);
      if (c == std::string::npos) pure[f] = false;
      else callees[f].push_back(c);
      ++callee_uses[nd.inputs[1]];
    }
    for (NodeId n = 0; n < fn.nodes.size(); ++n)
      if (fn.nodes[n].op == Op::SymAddr && uses[n] != callee_uses[n]) pure[f] = false;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t f = 0; f < fns.size(); ++f)
      if (pure[f] && std::any_of(callees[f].begin(), callees[f].end(), [&](size_t c) { return !pure[c]; })) {
        pure[f] = false;
        changed = true;
      }
  }
  return pure;
}

bool is_control_point(const Function& fn, NodeId n) {
  const Node& nd = fn.nodes[n];
  if (nd.op == Op::Start || nd.op == Op::Region) return true;
  return nd.op == Op::Proj && fn.nodes[nd.inputs[0]].op == Op::If;
}

// What a pure function's evaluation needs, computed once per function: its
// control points and, for each, the program of step 2 (nodes in id order,
// and for each the local indexes of the nodes that wait on it).
struct Plan {
  struct Point {
    NodeId node = kNone;
    NodeId terminator = kNone;
    std::vector<NodeId> phis;
    std::vector<NodeId> program;                 // sorted
    std::vector<std::vector<uint32_t>> waiters;  // per program node
    std::vector<uint32_t> unsatisfied;           // initial reference counts
    uint32_t exit_point = ~0u;                   // after a jump (or a proj a region lists)
    uint32_t exit_index = 0;                     // the region's control input it takes
    uint32_t branch[2] = {~0u, ~0u};             // an if's proj 0 (true) and proj 1 points
  };
  bool ok = true;  // false: a shape the evaluator does not take
  std::vector<Point> points;
  std::vector<uint32_t> point_of;  // node -> point index (~0u: not a point)
  uint32_t start = ~0u;
};

// A proj of a call reads the call's result: it waits for the call.
NodeId producer(const Function& fn, NodeId u) {
  const Node& nd = fn.nodes[u];
  return nd.op == Op::Proj && fn.nodes[nd.inputs[0]].op == Op::Call ? nd.inputs[0] : u;
}

// Computed by the point that needs them (no control input of their own).
bool floats(const Function& fn, NodeId n) {
  const Node& nd = fn.nodes[n];
  return nd.control.empty() && nd.op != Op::Const && eval_class(nd.op) != EvalClass::None;
}

void build_program(const Function& fn, Plan::Point& p, const std::vector<NodeId>& pinned,
                   const std::vector<NodeId>& roots) {
  std::vector<bool> in(fn.nodes.size(), false);
  std::vector<NodeId> stack;
  auto visit = [&](NodeId n) {
    if (in[n]) return;
    in[n] = true;
    p.program.push_back(n);
    stack.push_back(n);
  };
  for (NodeId n : pinned) visit(n);
  for (NodeId r : roots)
    if (floats(fn, r)) visit(r);
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    for (NodeId u : fn.nodes[n].inputs)
      if (floats(fn, u)) visit(u);
  }
  std::sort(p.program.begin(), p.program.end());
  p.waiters.assign(p.program.size(), {});
  p.unsatisfied.assign(p.program.size(), 0);
  auto local = [&](NodeId n) {
    auto it = std::lower_bound(p.program.begin(), p.program.end(), n);
    return it != p.program.end() && *it == n ? static_cast<uint32_t>(it - p.program.begin()) : ~0u;
  };
  // A call's memory input is no dependency: every call here is to a pure
  // function, whose memory result is its memory input (so calls in one
  // point run side by side, as the seed's operations do).
  for (uint32_t i = 0; i < p.program.size(); ++i)
    for (size_t k = fn.nodes[p.program[i]].op == Op::Call ? 1 : 0; k < fn.nodes[p.program[i]].inputs.size(); ++k)
      if (uint32_t j = local(producer(fn, fn.nodes[p.program[i]].inputs[k])); j != ~0u) {
        p.waiters[j].push_back(i);
        ++p.unsatisfied[i];
      }
}

Plan make_plan(const Function& fn) {
  Plan plan;
  NodeId count = static_cast<NodeId>(fn.nodes.size());
  plan.point_of.assign(count, ~0u);
  for (NodeId n = 0; n < count; ++n)
    if (is_control_point(fn, n)) {
      plan.point_of[n] = static_cast<uint32_t>(plan.points.size());
      plan.points.push_back({.node = n});
      if (fn.nodes[n].op == Op::Start) plan.start = plan.point_of[n];
    }
  if (plan.start == ~0u) plan.ok = false;
  std::vector<std::vector<NodeId>> pinned(plan.points.size());
  std::vector<std::pair<NodeId, uint32_t>> target(count, {kNone, 0});  // jump/proj -> region, index
  for (NodeId n = 0; n < count && plan.ok; ++n) {
    const Node& nd = fn.nodes[n];
    if (nd.op == Op::Region)
      for (uint32_t i = 0; i < nd.control.size(); ++i) target[nd.control[i]] = {n, i};
    if (nd.op == Op::Proj && fn.nodes[nd.inputs[0]].op == Op::If) {
      uint32_t& side = plan.points[plan.point_of[fn.nodes[nd.inputs[0]].control[0]]].branch[nd.literals[0].as_int() != 0];
      side = plan.point_of[n];
    }
    if (nd.control.size() != 1 || nd.op == Op::Region) continue;
    uint32_t k = plan.point_of[nd.control[0]];
    if (k == ~0u) {
      plan.ok = false;
      break;
    }
    if (nd.op == Op::Phi) plan.points[k].phis.push_back(n);
    else if (op_info(nd.op).has(TERMINATOR)) plan.points[k].terminator = n;
    else if (nd.op == Op::Call || op_info(nd.op).has(TRAPS)) pinned[k].push_back(n);
  }
  if (!plan.ok) return plan;
  for (Plan::Point& p : plan.points) {
    NodeId exit = p.terminator != kNone && fn.nodes[p.terminator].op == Op::Jump ? p.terminator : p.node;
    if (target[exit].first != kNone) {
      p.exit_point = plan.point_of[target[exit].first];
      p.exit_index = target[exit].second;
    }
  }
  for (uint32_t k = 0; k < plan.points.size(); ++k) {
    Plan::Point& p = plan.points[k];
    std::vector<NodeId> roots;
    if (p.terminator != kNone) roots.assign(fn.nodes[p.terminator].inputs.begin(), fn.nodes[p.terminator].inputs.end());
    if (p.exit_point != ~0u)
      for (NodeId phi : plan.points[p.exit_point].phis) roots.push_back(fn.nodes[phi].inputs[p.exit_index]);
    build_program(fn, p, pinned[k], roots);
  }
  return plan;
}

struct Key {
  size_t fn;
  std::vector<uint64_t> args;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ k.fn;
    for (uint64_t a : k.args) h = (h ^ a) * 0x100000001B3ull + (h >> 29);
    return static_cast<size_t>(h);
  }
};

// Step 2 of the header.
class Evaluator {
 public:
  struct Result {
    bool ok = false;
    bool has_value = false;
    uint64_t value = 0;
  };

  Evaluator(const std::vector<Function>& fns, const std::vector<bool>& pure, const Names& index)
      : fns_(fns), pure_(pure), index_(index), plans_(fns.size()) {}

  Result evaluate(size_t fn, std::vector<uint64_t> args) {
    if (module_steps_ >= kModuleSteps) return {};
    steps_ = 0;
    size_t e = lookup(fn, std::move(args));
    if (e == kAbsent) e = start_entry(fn, std::move(pending_args_));
    run();
    const Entry& entry = entries_[e];
    if (entry.state != State::Done) return {};
    return {.ok = true, .has_value = entry.has_value, .value = entry.value};
  }

 private:
  enum class State : uint8_t { Running, Done, Failed };
  static constexpr size_t kAbsent = ~size_t{0};
  struct Waiter {
    size_t activation;
    uint32_t op;  // local index of the blocked call
  };
  struct Entry {
    size_t fn;
    State state = State::Running;
    bool has_value = false;
    uint64_t value = 0;
    std::vector<Waiter> blocked_by_this;
  };
  struct Activation {
    size_t entry;
    size_t fn;
    std::vector<uint64_t> value;
    std::vector<uint8_t> defined;
    uint32_t point = 0;
    std::vector<uint32_t> unsatisfied;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    uint32_t blocked = 0;
    bool live = true;
  };

  const Plan& plan(size_t fn) {
    if (!plans_[fn]) plans_[fn] = std::make_unique<Plan>(make_plan(fns_[fn]));
    return *plans_[fn];
  }

  // The entry of (fn, args), or kAbsent (then the args wait in pending_args_).
  size_t lookup(size_t fn, std::vector<uint64_t> args) {
    Key key{fn, std::move(args)};
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    pending_args_ = std::move(key.args);
    return kAbsent;
  }

  size_t start_entry(size_t fn, std::vector<uint64_t> args) {
    size_t e = entries_.size();
    entries_.push_back({.fn = fn});
    cache_.emplace(Key{fn, args}, e);
    const Plan& p = plan(fn);
    const Function& f = fns_[fn];
    if (!pure_[fn] || !p.ok || live_nodes_ + f.nodes.size() > kLiveNodes || entries_.size() > kMaxEntries) {
      failed_ = true;
      return e;
    }
    live_nodes_ += f.nodes.size();
    size_t a = activations_.size();
    activations_.push_back({.entry = e, .fn = fn});
    Activation& act = activations_.back();
    act.value.assign(f.nodes.size(), 0);
    act.defined.assign(f.nodes.size(), 0);
    for (NodeId n = 0; n < f.nodes.size(); ++n) {
      const Node& nd = f.nodes[n];
      if (nd.op == Op::Const) {
        act.value[n] = const_value(nd.literals[1], type_bits(*literal_value_type(nd.literals[0])));
        act.defined[n] = 1;
      } else if (nd.op == Op::Param) {
        size_t i = static_cast<size_t>(nd.literals[1].as_int());
        if (i >= args.size()) failed_ = true;
        else act.value[n] = args[i], act.defined[n] = 1;
      } else if (nd.op == Op::EntryMem) {
        act.defined[n] = 1;
      } else if (nd.op == Op::SymAddr) {
        act.value[n] = function_named(nd, index_);
        act.defined[n] = 1;
      }
    }
    enter(a, p.start);
    runnable_.push_back(a);
    return e;
  }

  void enter(size_t a, uint32_t point) {
    Activation& act = activations_[a];
    const Plan::Point& p = plan(act.fn).points[point];
    act.point = point;
    act.unsatisfied = p.unsatisfied;
    for (uint32_t i = 0; i < act.unsatisfied.size(); ++i)
      if (act.unsatisfied[i] == 0) act.ready.push(i);
    ++steps_;
  }

  // The value node u holds (a call's value proj: the call's result).
  bool read(const Activation& act, NodeId u, uint64_t& v) const {
    const Function& f = fns_[act.fn];
    const Node& nd = f.nodes[u];
    if (nd.op == Op::Proj && f.nodes[nd.inputs[0]].op == Op::Call) {
      if (nd.literals[0].as_int() == 0) return v = 0, true;
      u = nd.inputs[0];
    }
    v = act.value[u];
    return act.defined[u] != 0;
  }

  void finish_op(Activation& act, uint32_t i) {
    for (uint32_t w : plan(act.fn).points[act.point].waiters[i])
      if (--act.unsatisfied[w] == 0) act.ready.push(w);
  }

  // Runs one node of the current point's program; false: the evaluation
  // fails.
  bool run_op(size_t a, uint32_t i) {
    Activation& act = activations_[a];
    const Function& f = fns_[act.fn];
    NodeId n = plan(act.fn).points[act.point].program[i];
    const Node& nd = f.nodes[n];
    uint64_t args[2];
    if (nd.op == Op::Call) {
      std::vector<uint64_t> values;
      for (size_t k = 2; k < nd.inputs.size(); ++k) {
        uint64_t v;
        if (!read(act, nd.inputs[k], v)) return false;
        values.push_back(v);
      }
      uint64_t callee;
      if (!read(act, nd.inputs[1], callee)) return false;
      size_t e = lookup(callee, std::move(values));
      if (e == kAbsent) e = start_entry(callee, std::move(pending_args_));
      Activation& caller = activations_[a];  // start_entry may have moved it
      Entry& entry = entries_[e];
      if (entry.state == State::Failed) return false;
      if (entry.state == State::Done) {
        caller.value[n] = entry.value;
        caller.defined[n] = entry.has_value;
        finish_op(caller, i);
        return true;
      }
      entry.blocked_by_this.push_back({a, i});
      ++caller.blocked;
      return true;
    }
    if (nd.inputs.size() > 2) return false;
    for (size_t k = 0; k < nd.inputs.size(); ++k)
      if (!read(act, nd.inputs[k], args[k])) return false;
    EvalError err = EvalError::None;
    std::optional<uint64_t> v = eval_pure(nd.op, {nd.literals.data(), nd.literals.size()},
                                          {args, nd.inputs.size()}, &err);
    if (!v) return false;
    act.value[n] = *v;
    act.defined[n] = 1;
    finish_op(act, i);
    return true;
  }

  // The current point's program is done: its terminator runs. False: the
  // evaluation fails.
  bool leave(size_t a) {
    Activation& act = activations_[a];
    const Function& f = fns_[act.fn];
    const Plan& pl = plan(act.fn);
    const Plan::Point& p = pl.points[act.point];
    NodeId term = p.terminator;
    if (term != kNone && f.nodes[term].op == Op::Return) return finish_entry(a);
    if (term != kNone && f.nodes[term].op == Op::If) {
      uint64_t c;
      if (!read(act, f.nodes[term].inputs[0], c)) return false;
      uint32_t next = p.branch[c != 0 ? 0 : 1];
      if (next == ~0u) return false;
      enter(a, next);
      return true;
    }
    if (p.exit_point == ~0u) return false;
    const std::vector<NodeId>& phis = pl.points[p.exit_point].phis;
    std::vector<std::pair<uint64_t, uint8_t>> moved;
    for (NodeId phi : phis) {
      uint64_t v;
      bool d = read(act, f.nodes[phi].inputs[p.exit_index], v);
      moved.push_back({v, d});
    }
    for (size_t k = 0; k < phis.size(); ++k) act.value[phis[k]] = moved[k].first, act.defined[phis[k]] = moved[k].second;
    enter(a, p.exit_point);
    return true;
  }

  // Phase 3: the entry is done; the calls blocked on it resume.
  bool finish_entry(size_t a) {
    Activation& act = activations_[a];
    const Node& ret = fns_[act.fn].nodes[plan(act.fn).points[act.point].terminator];
    Entry& entry = entries_[act.entry];
    if (ret.inputs.size() > 1) {
      if (!read(act, ret.inputs[1], entry.value)) return false;
      entry.has_value = true;
    }
    entry.state = State::Done;
    act.live = false;
    live_nodes_ -= act.value.size();
    act.value = {};
    act.defined = {};
    for (Waiter w : entry.blocked_by_this) {
      Activation& caller = activations_[w.activation];
      NodeId call = plan(caller.fn).points[caller.point].program[w.op];
      caller.value[call] = entry.value;
      caller.defined[call] = entry.has_value;
      --caller.blocked;
      finish_op(caller, w.op);
      runnable_.push_back(w.activation);
    }
    entry.blocked_by_this.clear();
    return true;
  }

  // Runs runnable activations (newest first) until none is left, or the
  // evaluation fails; then every entry still running fails.
  void run() {
    while (!runnable_.empty() && !failed_) {
      size_t a = runnable_.back();
      runnable_.pop_back();
      while (!failed_ && activations_[a].live) {
        if (steps_ > kCallSteps || module_steps_ + steps_ > kModuleSteps) failed_ = true;
        Activation& act = activations_[a];
        if (!act.ready.empty()) {
          uint32_t i = act.ready.top();
          act.ready.pop();
          ++steps_;
          if (!run_op(a, i)) failed_ = true;
        } else if (act.blocked == 0) {
          if (!leave(a)) failed_ = true;
        } else {
          break;  // waits for a blocked call's entry
        }
      }
    }
    module_steps_ += steps_;
    for (Entry& e : entries_)
      if (e.state == State::Running) {
        e.state = State::Failed;
        e.blocked_by_this.clear();
      }
    activations_.clear();
    runnable_.clear();
    live_nodes_ = 0;
    failed_ = false;
  }

  const std::vector<Function>& fns_;
  const std::vector<bool>& pure_;
  const Names& index_;
  std::vector<std::unique_ptr<Plan>> plans_;
  std::unordered_map<Key, size_t, KeyHash> cache_;
  std::vector<Entry> entries_;
  std::vector<Activation> activations_;
  std::vector<size_t> runnable_;
  std::vector<uint64_t> pending_args_;
  uint64_t steps_ = 0, module_steps_ = 0, live_nodes_ = 0;
  bool failed_ = false;
};

// The constant arguments of a call to `callee`, when every argument is a
// `const` of its parameter's type and the call's result type is the
// callee's.
std::optional<std::vector<uint64_t>> constant_arguments(const Graph& g, NodeId call, const Function& callee) {
  const Node& c = g.node(call);
  size_t count = c.inputs.size() - 2;
  if (count != callee.signature.params.size()) return std::nullopt;
  std::vector<uint64_t> args(count, 0);
  std::vector<bool> seen(count, false);
  for (const Node& p : callee.nodes) {
    if (p.op != Op::Param) continue;
    size_t i = static_cast<size_t>(p.literals[1].as_int());
    if (i >= count) return std::nullopt;
    NodeId a = c.inputs[i + 2];
    if (!g.is_const(a) || g.const_type(a) != literal_value_type(p.literals[0])) return std::nullopt;
    args[i] = g.const_value_of(a);
    seen[i] = true;
  }
  for (size_t i = 0; i < count; ++i)
    if (!seen[i]) {
      NodeId a = c.inputs[i + 2];
      if (!g.is_const(a)) return std::nullopt;
      args[i] = g.const_value_of(a);
    }
  auto result = literal_value_type(c.literals[0]);
  bool fits = callee.signature.result == "void" ? !result : result && value_type_name(*result) == callee.signature.result;
  if (!fits) return std::nullopt;
  return args;
}

using Fold = std::pair<NodeId, Evaluator::Result>;

// Step 2 for one function: its calls to pure functions with constant
// arguments whose evaluation succeeds. Reads only (the evaluator's plans
// are of the functions as they are now).
std::vector<Fold> foldable_calls(Function& fn, const std::vector<Function>& fns, const std::vector<bool>& pure,
                                 const Names& index, Evaluator& eval) {
  std::vector<Fold> folds;
  Graph g(fn);
  for (NodeId n = 0; n < g.size(); ++n) {
    if (g.op(n) != Op::Call) continue;
    size_t callee = function_named(g.node(g.node(n).inputs[1]), index);
    if (callee == std::string::npos || !pure[callee]) continue;
    auto args = constant_arguments(g, n, fns[callee]);
    if (!args) continue;
    Evaluator::Result r = eval.evaluate(callee, std::move(*args));
    if (r.ok) folds.push_back({n, r});
  }
  return folds;
}

// Step 3 of the header, in one function.
void fold_calls(Function& fn, const std::vector<Fold>& folds) {
  Graph g(fn);
  for (auto [call, r] : folds) {
    Loc loc = g.node(call).loc;
    for (NodeId p; (p = g.proj(call, 1)) != kNone;) {
      g.replace_uses(p, g.add_const(*literal_value_type(g.node(call).literals[0]), r.value, loc));
      g.kill(p);
    }
    for (NodeId p; (p = g.proj(call, 0)) != kNone;) {
      g.replace_uses(p, g.node(call).inputs[0]);
      g.kill(p);
    }
    std::vector<NodeId> inputs(g.node(call).inputs.begin() + 1, g.node(call).inputs.end());
    g.kill(call);
    for (NodeId in : inputs) g.kill_if_unused(in);
  }
  g.finish();
}

}  // namespace

uint64_t fingerprint(const std::set<std::string, std::less<>>& names) {
  uint64_t h = 14695981039346656037ull;
  for (const std::string& name : names) {
    for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;  // a separator no name holds
  }
  return h == 0 ? 1 : h;
}

std::set<std::string, std::less<>> pure_function_names(const std::vector<Function>& fns,
                                                       const ModuleHeader& header) {
  Names index;
  for (size_t i = 0; i < fns.size(); ++i) index.emplace(fns[i].name, i);
  std::vector<bool> pure = pure_functions(fns, index);
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < fns.size(); ++i)
    if (pure[i] || (fns[i].attrs.has(kHintConst) && !fns[i].attrs.weak)) names.insert(fns[i].name);
  // Declared `const` (gcc's attribute: no memory read or written): as pure
  // as a function whose body shows it.
  for (const Extern& e : header.externs)
    if (e.kind == ExternKind::Function && e.attrs.has(kHintConst)) names.insert(e.name);
  return names;
}

// Every function is visited: a call's value depends on its callee's body.
size_t const_call(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope) {
  Names index;
  for (size_t i = 0; i < fns.size(); ++i) index.emplace(fns[i].name, i);
  std::vector<bool> pure = pure_functions(fns, index);
  if (std::none_of(pure.begin(), pure.end(), [](bool p) { return p; })) return 0;
  Evaluator eval(fns, pure, index);
  std::vector<std::vector<Fold>> folds(fns.size());
  for (size_t f = 0; f < fns.size(); ++f) folds[f] = foldable_calls(fns[f], fns, pure, index, eval);
  size_t changes = 0;
  for (size_t f = 0; f < fns.size(); ++f)
    if (!folds[f].empty()) {
      fold_calls(fns[f], folds[f]);
      scope.mark_changed(f);
      changes += folds[f].size();
    }
  if (changes) changes += drop_unreferenced(fns, header, scope);
  return changes;
}

}  // namespace pl::sonopt
