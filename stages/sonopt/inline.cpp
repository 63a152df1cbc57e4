// inline.cpp - inlining over the whole module: a call to a small function,
// or to an internal function called from one place only, is replaced by a
// copy of the callee's graph.
//
// Algorithm (one application = one sweep over the module's call sites):
//  1. Census: for each function, its live node count and the call sites
//     naming it (a `call` whose callee input is `symaddr "f"` of a function
//     defined here); a function whose name is also used any other way
//     (symaddr not as a callee, a data relocation) has its address taken.
//  2. Functions are visited callees first (a postorder of the call graph),
//     so a copy already holds what was inlined into its original. A call
//     site is inlined when the callee is on no call-graph cycle (this pass
//     never copies recursion: that bounds it, and keeps -O2 idempotent; a
//     function's own self calls are inline-recursive's), is not
//     variadic, not weak (the linker may pick another body), not marked
//     noinline (hint), has a `return` and no `alloca` (its block lives
//     until the callee returns: in a caller's loop it would grow the stack
//     on every trip), `frameaddress` or `returnaddress`, the arguments' types are the
//     parameters' types, and the policy of the -O level (below) wants the
//     callee; and the caller stays under kCallerBudget nodes: when its
//     candidates would not all fit, its sites are taken deepest loop first
//     (loops.h; ties in node order), so the budget goes to the calls that
//     run most. Unreferenced internal functions are dropped,
//     except those marked used, constructors, destructors and alias targets.
//     Policy, gcc 12's (ipa-inline.cc: want_early_inline_function_p,
//     want_inline_small_function_p, want_inline_function_to_all_callers_p;
//     opts.cc's lists of what each -O level enables):
//     - at -O1 and -O2: a function marked always_inline; one declared
//       `inline` (hint inline, gcc's DECL_DECLARED_INLINE_P) of at most
//       kDeclaredInline nodes (gcc: max-inline-insns-single, 70 of its
//       size units); a function whose copies at all its call sites cost
//       no more than the calls they replace, plus its body when that then
//       goes (an internal function whose address is not taken): gcc's
//       inlining into all callers when the unit does not grow, which
//       -finline-functions-called-once enables (called once: always, up to
//       kOnce nodes; else only functions about as small as a call). gcc
//       -O1 inlines nothing else ("function
//       not inline candidate": -finline-small-functions is -O2's), so that
//       c-torture's 990208-1 (an `inline` function's label addresses, one
//       per copy) and bcp-1 (__builtin_constant_p of an `inline`
//       function's parameter, answered after inlining) behave at -O1 as
//       gcc -O1 builds them;
//     - at -O2 also any function of at most kSmall nodes
//       (-finline-small-functions; gcc: max-inline-insns-auto).
//  3. Splicing (Click's "Combining Analyses, Combining Optimizations" style
//     graph copy): the callee's nodes are appended to the caller with its
//     `start` mapped to the call's control point B, `entrymem` to the call's
//     memory input and each `param` to its argument. Its returns are joined:
//     one return's control point is the continuation K; several get a
//     `jump` each into a new region K, with a memory phi and a value phi.
//     The call's memory result is replaced by the returned memory, its value
//     by the returned value (or `undefined` for void). Block B is split at
//     the call: its terminator, and every node pinned to B that depends on
//     the call's results (the memory chain after the call, loads of it,
//     divisions of its value), move to K; a region that listed B directly
//     now lists a new `jump` from K. All of a caller's sites are spliced
//     into one Graph, each copy appended after every node (the other ids
//     stay), and renumbered once at the end: linear in the caller and its
//     copies, where renumbering after each site was quadratic.
//  4. Internal functions no external function or data reaches any more
//     are dropped (drop_unreferenced).
// A caller that takes in a callee marked `stack_protect` (FORMAT.md section
// 1) is marked too: the callee's arrays are now in the caller's frame.
// Label addresses (GNU C's `&&L` is `symaddr f + k`, k >= 1 the label's
// number; stages/c2ast/labels.cpp, FORMAT.md 7, "Labels as values"): in a
// copy, an `add` of `symaddr callee` and a constant k >= 1 becomes `add
// (symaddr caller) (const base + k)`, base one copy's worth above every
// label number the caller uses (its own `symaddr caller + k` and the
// relocations `caller + k` of the module's data: last_label_number), so
// each copy's labels get addresses of their own, distinct from the
// caller's and from other copies' (gcc's c-torture 990208-1), and the
// differences between one copy's labels stay the callee's. In a function's
// own code `symaddr f + k` is nothing but a label's address (a call through
// it, or through f plus anything, would be undefined), and `symaddr
// callee` used any other way (a call, a function pointer) is copied as is.
// A function whose labels cannot be renamed so (a computed goto compares
// against its own address; a label's address in a static initializer
// stays the callee's relocation) carries the noinline hint from c2ast, as
// gcc refuses to inline it.
// Invariants needed: the son contract in every function. Kept: the son
// contract (B's part before the call dominates the callee's entry, the
// callee's returns dominate K); the memory chain stays one chain (the
// callee's replaces the call).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "loops.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr size_t kSmall = 40;            // nodes: -O2 inlines any function this small
constexpr size_t kDeclaredInline = 120;  // nodes: a function declared `inline`, at -O1 too
constexpr size_t kOnce = 2000;           // nodes: an internal function called once
constexpr size_t kCallNodes = 4;         // a call's cost in its caller: the call, the callee's symaddr, two projs
constexpr size_t kCallerBudget = 20000;

using Names = std::map<std::string, size_t, std::less<>>;

// The defined function a call names, or npos.
size_t callee_of(const Function& fn, const Node& call, const Names& index) {
  const Node& target = fn.nodes[call.inputs[1]];
  if (target.op != Op::SymAddr) return std::string::npos;
  auto it = index.find(target.literals[0].as_string());
  return it == index.end() ? std::string::npos : it->second;
}

struct Census {
  Names index;                      // defined function -> fns index
  std::vector<size_t> call_sites;   // per function
  std::vector<bool> address_taken;  // per function

  Census(const std::vector<Function>& fns, const ModuleHeader& header)
      : call_sites(fns.size(), 0), address_taken(fns.size(), false) {
    for (size_t i = 0; i < fns.size(); ++i) index.emplace(fns[i].name, i);
    for (const DataItem& d : header.data)
      for (const Reloc& r : d.relocs) note(r.symbol, false);
    for (const Function& fn : fns)
      for (const Node& u : fn.nodes)
        for (size_t k = 0; k < u.inputs.size(); ++k)
          if (const Node& in = fn.nodes[u.inputs[k]]; in.op == Op::SymAddr)
            note(in.literals[0].as_string(), u.op == Op::Call && k == 1);
  }
  void note(std::string_view name, bool as_callee) {
    auto it = index.find(name);
    if (it == index.end()) return;
    if (as_callee) ++call_sites[it->second];
    else address_taken[it->second] = true;
  }
};

}  // namespace

// An alloca lives until its function returns: inlined into a caller's
// loop, it would grow the stack on every trip.
// The frame and return addresses of an inlined copy would be its caller's.
bool has_alloca(const Function& fn) {
  return std::any_of(fn.nodes.begin(), fn.nodes.end(), [](const Node& n) {
    return n.op == Op::Alloca || n.op == Op::FrameAddress || n.op == Op::ReturnAddress;
  });
}

bool has_return(const Function& fn) {
  return std::any_of(fn.nodes.begin(), fn.nodes.end(), [](const Node& n) { return n.op == Op::Return; });
}

// Whether each argument's type is its parameter's (when known).
bool arguments_fit(const Graph& g, NodeId call, const Function& callee) {
  const Node& c = g.node(call);
  if (c.inputs.size() - 2 != callee.signature.params.size()) return false;
  for (const Node& p : callee.nodes) {
    if (p.op != Op::Param) continue;
    size_t i = static_cast<size_t>(p.literals[1].as_int());
    if (i + 2 >= c.inputs.size()) return false;
    auto type = result_type(g, c.inputs[i + 2]);
    if (!type || type != literal_value_type(p.literals[0])) return false;
  }
  auto result = literal_value_type(c.literals[0]);
  return callee.signature.result == "void" ? !result : result && value_type_name(*result) == callee.signature.result;
}

namespace {

// The nodes of block `b` (pinned to it, or its terminator) that run after
// `call`: they depend on its results through anything but a phi. The walk
// does not go on from a node pinned to another block: what depends on it
// runs in blocks b dominates, and a node of b depending on it would need
// that block to dominate b too (so a caller's sites cost the nodes of
// their blocks, not each the rest of the function).
std::vector<NodeId> nodes_after_call(const Graph& g, NodeId call, NodeId b, WalkMarks& seen) {
  seen.start(g.size());
  std::vector<NodeId> stack = {call}, out;
  seen.seen(call);
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    for (NodeId u : g.users(n)) {
      if (g.op(u) == Op::Phi || g.op(u) == Op::Region || seen.seen(u)) continue;
      const Node& nd = g.node(u);
      if (!nd.control.empty() && nd.control[0] != b) continue;
      stack.push_back(u);
      if (!nd.control.empty() && u != call) out.push_back(u);
    }
  }
  for (NodeId u : g.users(b))
    if (g.has(u, TERMINATOR) && g.node(u).control[0] == b && !seen.seen(u)) out.push_back(u);
  std::sort(out.begin(), out.end());
  return out;
}

struct Return {
  NodeId control, memory, value;
};

// The `const` k >= 1 that `nd` adds to `symaddr name` (in fn), or null: the
// shape of a label's address, name + k (see the header).
const Node* label_offset(const Function& fn, const Node& nd, std::string_view name) {
  if (nd.op != Op::Add || nd.inputs.size() != 2) return nullptr;
  for (int side = 0; side < 2; ++side) {
    const Node& sym = fn.nodes[nd.inputs[side]];
    const Node& k = fn.nodes[nd.inputs[1 - side]];
    if (sym.op == Op::SymAddr && sym.literals[0].as_string() == name && k.op == Op::Const &&
        k.literals[1].as_int() >= 1)
      return &k;
  }
  return nullptr;
}

}  // namespace

// The highest label number the function's labels use: its own `symaddr f
// + k` and the relocations `f + k` of the module's data (0 when none).
int64_t last_label_number(const Function& fn, const ModuleHeader& header) {
  int64_t last = 0;
  for (const Node& nd : fn.nodes)
    if (const Node* k = label_offset(fn, nd, fn.name)) last = std::max(last, k->literals[1].as_int());
  for (const DataItem& d : header.data)
    for (const Reloc& r : d.relocs)
      if (r.symbol == fn.name) last = std::max(last, r.addend);
  return last;
}

// Splices a copy of `callee` in place of `call` in g's function (see the
// header). The copy is appended after every node, so the caller's other
// nodes keep their ids. Copies of the callee's label addresses name the
// caller's labels numbered from `labels` + 1 on; `labels` then counts them.
// Returns where each callee node went (kNone: its return).
std::vector<NodeId> splice(Graph& g, NodeId call, const Function& callee, WalkMarks& marks, const std::string& caller,
                           int64_t& labels) {
  NodeId b = g.node(call).control[0];
  NodeId memory_in = g.node(call).inputs[0];
  std::vector<NodeId> args(g.node(call).inputs.begin() + 2, g.node(call).inputs.end());
  std::vector<NodeId> after = nodes_after_call(g, call, b, marks);
  // Map the callee's node ids into the caller, appending the copies.
  std::vector<NodeId> map(callee.nodes.size(), kNone);
  NodeId next = g.size();
  for (NodeId n = 0; n < callee.nodes.size(); ++n) {
    const Node& nd = callee.nodes[n];
    if (nd.op == Op::Start) map[n] = b;
    else if (nd.op == Op::EntryMem) map[n] = memory_in;
    else if (nd.op == Op::Param) map[n] = args[static_cast<size_t>(nd.literals[1].as_int())];
    else if (nd.op != Op::Return) map[n] = next++;
  }
  std::vector<Return> returns;
  struct LabelCopy {
    NodeId add;          // the copied add
    Literal type;        // its constant's type
    int64_t k;           // and value
  };
  std::vector<LabelCopy> label_copies;
  int64_t copied_labels = 0;
  std::vector<Node> copies;
  copies.reserve(next - g.size());
  for (NodeId n = 0; n < callee.nodes.size(); ++n) {
    Node nd = callee.nodes[n];
    for (NodeId& c : nd.control) c = map[c];
    for (NodeId& i : nd.inputs) i = map[i];
    if (nd.op == Op::Return) {
      returns.push_back({nd.control[0], nd.inputs[0], nd.inputs.size() > 1 ? nd.inputs[1] : kNone});
      continue;
    }
    if (nd.op == Op::Start || nd.op == Op::EntryMem || nd.op == Op::Param) continue;
    if (const Node* k = label_offset(callee, callee.nodes[n], callee.name)) {
      label_copies.push_back({map[n], k->literals[0], k->literals[1].as_int()});
      copied_labels = std::max(copied_labels, k->literals[1].as_int());
    }
    copies.push_back(std::move(nd));
  }
  g.add_all(std::move(copies));
  for (const LabelCopy& c : label_copies) {
    Loc at = g.node(c.add).loc;
    NodeId sym = g.add(Node{.op = Op::SymAddr, .literals = {Literal::string(caller)}, .loc = at});
    NodeId number = g.add(Node{.op = Op::Const, .literals = {c.type, Literal::integer(labels + c.k)}, .loc = at});
    NodeId old_sym = g.node(c.add).inputs[0], old_k = g.node(c.add).inputs[1];
    g.set_input(c.add, 0, sym);
    g.set_input(c.add, 1, number);
    g.kill_if_unused(old_sym);
    g.kill_if_unused(old_k);
  }
  labels += copied_labels;
  Loc loc = g.node(call).loc;
  NodeId k, memory, value;
  if (returns.size() == 1) {
    k = returns[0].control;
    memory = returns[0].memory;
    value = returns[0].value;
  } else {
    Node region{.op = Op::Region, .loc = loc};
    for (const Return& r : returns) region.control.push_back(g.add(Node{.op = Op::Jump, .control = {r.control}, .loc = loc}));
    k = g.add(std::move(region));
    Node mphi{.op = Op::Phi, .control = {k}, .loc = loc};
    Node vphi{.op = Op::Phi, .control = {k}, .loc = loc};
    for (const Return& r : returns) {
      mphi.inputs.push_back(r.memory);
      if (r.value != kNone) vphi.inputs.push_back(r.value);
    }
    memory = g.add(std::move(mphi));
    value = vphi.inputs.size() == returns.size() ? g.add(std::move(vphi)) : kNone;
  }
  if (k != b) {
    for (NodeId n : after) g.set_control(n, 0, k);
    std::vector<NodeId> users(g.users(b).begin(), g.users(b).end());
    for (NodeId u : users) {
      if (g.op(u) != Op::Region) continue;
      for (size_t i = 0; i < g.node(u).control.size(); ++i)
        if (g.node(u).control[i] == b) g.set_control(u, i, g.add(Node{.op = Op::Jump, .control = {k}, .loc = loc}));
    }
  }
  if (NodeId p = g.proj(call, 0); p != kNone) {
    // Debug bindings just after the call: after the body, where the call's
    // continuation `k` has its memory state.
    g.move_position(p, g.memory_position_in(memory, k));
    g.replace_uses(p, memory);
    g.kill(p);
  }
  if (NodeId p = g.proj(call, 1); p != kNone) {
    g.replace_uses(p, value != kNone ? value : g.add(Node{.op = Op::Undef, .loc = loc}));
    g.kill(p);
  }
  NodeId target = g.node(call).inputs[1];
  g.kill(call);
  g.kill_if_unused(target);
  return map;
}

namespace {

// The module's call graph over defined functions: each function's callees
// (deduplicated), a postorder (callees before callers, ties by index), and
// whether each function is on a cycle (can call itself, directly or not):
// in a strongly connected component of more than one function, or calling
// itself (Tarjan's algorithm, iterative, over the same depth-first search
// that gives the postorder; linear where a search from every function was
// quadratic in the module).
struct CallGraph {
  std::vector<std::vector<size_t>> callees;
  std::vector<size_t> postorder;
  std::vector<bool> recursive;

  CallGraph(const std::vector<Function>& fns, const Names& index) : callees(fns.size()), recursive(fns.size()) {
    for (size_t f = 0; f < fns.size(); ++f) {
      for (const Node& nd : fns[f].nodes)
        if (nd.op == Op::Call)
          if (size_t c = callee_of(fns[f], nd, index); c != std::string::npos) callees[f].push_back(c);
      std::sort(callees[f].begin(), callees[f].end());
      callees[f].erase(std::unique(callees[f].begin(), callees[f].end()), callees[f].end());
    }
    constexpr size_t kUnseen = std::string::npos;
    std::vector<size_t> order(fns.size(), kUnseen), low(fns.size(), 0);
    std::vector<bool> on_stack(fns.size(), false);
    std::vector<size_t> scc_stack;
    size_t counter = 0;
    for (size_t root = 0; root < fns.size(); ++root) {
      if (order[root] != kUnseen) continue;
      std::vector<std::pair<size_t, size_t>> stack;  // function, next callee
      auto enter = [&](size_t f) {
        order[f] = low[f] = counter++;
        scc_stack.push_back(f);
        on_stack[f] = true;
        stack.push_back({f, 0});
      };
      enter(root);
      while (!stack.empty()) {
        auto& [f, next] = stack.back();
        if (next < callees[f].size()) {
          size_t c = callees[f][next++];
          if (c == f) recursive[f] = true;
          if (order[c] == kUnseen)
            enter(c);
          else if (on_stack[c])
            low[f] = std::min(low[f], order[c]);
          continue;
        }
        size_t done = f;
        postorder.push_back(done);
        stack.pop_back();
        if (!stack.empty()) low[stack.back().first] = std::min(low[stack.back().first], low[done]);
        if (low[done] != order[done]) continue;
        // `done` roots a component: pop it.
        size_t first = scc_stack.size();
        while (scc_stack[first - 1] != done) --first;
        --first;
        for (size_t k = first; k < scc_stack.size(); ++k) {
          on_stack[scc_stack[k]] = false;
          if (scc_stack.size() - first > 1) recursive[scc_stack[k]] = true;
        }
        scc_stack.resize(first);
      }
    }
  }
};

}  // namespace

size_t drop_unreferenced(std::vector<Function>& fns, const ModuleHeader& header, ModuleScope& scope) {
  Names index;
  for (size_t i = 0; i < fns.size(); ++i) index.emplace(fns[i].name, i);
  // Reachable from the roots (external functions, data relocations) through
  // the symbols each function names.
  std::vector<bool> live(fns.size(), false);
  std::vector<size_t> stack;
  auto reach = [&](std::string_view name) {
    if (auto it = index.find(name); it != index.end() && !live[it->second]) {
      live[it->second] = true;
      stack.push_back(it->second);
    }
  };
  for (const DataItem& d : header.data)
    for (const Reloc& r : d.relocs) reach(r.symbol);
  // Roots also: what `used` keeps, constructors and destructors (the
  // loader calls them), alias targets (the alias is another name).
  for (size_t i = 0; i < fns.size(); ++i) {
    const SymbolAttrs& a = fns[i].attrs;
    if (fns[i].linkage != Linkage::Internal || a.used || a.constructor != SymbolAttrs::kNone ||
        a.destructor != SymbolAttrs::kNone)
      reach(fns[i].name);
  }
  for (const Extern& e : header.externs)
    if (!e.attrs.alias.empty()) reach(e.attrs.alias);
  while (!stack.empty()) {
    size_t f = stack.back();
    stack.pop_back();
    for (const Node& nd : fns[f].nodes)
      if (nd.op == Op::SymAddr) reach(nd.literals[0].as_string());
  }
  size_t dropped = 0;
  std::vector<Function> kept;
  std::vector<bool> kept_changed;
  for (size_t i = 0; i < fns.size(); ++i) {
    if (!live[i]) {
      ++dropped;
      continue;
    }
    kept.push_back(std::move(fns[i]));
    kept_changed.push_back(i < scope.changed.size() && scope.changed[i]);
  }
  fns = std::move(kept);
  scope.changed = std::move(kept_changed);
  return dropped;
}

namespace {

// The nodes a function's copy leaves in its caller: all but its start,
// entrymem, params and returns (the call's node, symaddr and projs go).
size_t body_size(const Function& fn) {
  size_t frame = 0;
  for (const Node& nd : fn.nodes)
    frame += nd.op == Op::Start || nd.op == Op::EntryMem || nd.op == Op::Param || nd.op == Op::Return;
  return fn.nodes.size() - frame;
}

// Orders the sites by the loop depth of their blocks, deepest first (ties:
// in node order), so that a caller's budget goes to the calls that run most.
void order_by_loop_depth(Graph& g, std::vector<std::pair<NodeId, size_t>>& sites) {
  auto cfg = g.son_cfg();
  LoopForest forest = find_loops(g, *cfg);
  std::vector<uint32_t> depth(cfg->blocks.size(), 0);
  for (const Loop& loop : forest.loops)
    for (uint32_t b : loop.blocks) ++depth[b];
  auto site_depth = [&](NodeId call) { return depth[cfg->block_of_node(g, call)]; };
  std::stable_sort(sites.begin(), sites.end(),
                   [&](const auto& a, const auto& b) { return site_depth(a.first) > site_depth(b.first); });
}

}  // namespace

// Every function is visited (the call graph and the sizes are the module's).
size_t inline_calls(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope) {
  Census census(fns, header);
  CallGraph calls(fns, census.index);
  std::vector<int8_t> returns(fns.size(), -1);  // has_return, once per function
  std::vector<size_t> bodies(fns.size(), std::string::npos);  // body_size, once per function (callees come first)
  // What gcc inlines at scope.level (the header, "Policy").
  auto wanted = [&](size_t callee) {
    const Function& fn = fns[callee];
    if (calls.recursive[callee] || fn.signature.variadic) return false;
    // A weak definition may be replaced at link time; noinline says no.
    if (fn.attrs.weak || fn.attrs.has(kHintNoinline)) return false;
    if (returns[callee] < 0) returns[callee] = has_return(fn);
    if (!returns[callee] || has_alloca(fn)) return false;
    size_t size = fn.nodes.size();
    if (fn.attrs.has(kHintAlwaysInline) || (fn.attrs.has(kHintInline) && size <= kDeclaredInline)) return true;
    if (scope.level >= 2 && size <= kSmall) return true;
    // Copied into every caller, the copies cost `body - kCallNodes` each,
    // and the function goes when nothing else names it: gcc inlines into
    // all callers when the unit does not grow (called once: always).
    size_t sites = census.call_sites[callee];
    bool goes = fn.linkage == Linkage::Internal && !census.address_taken[callee];
    if (goes && sites == 1) return size <= kOnce;
    if (bodies[callee] == std::string::npos) bodies[callee] = body_size(fn);
    return sites * bodies[callee] <= sites * kCallNodes + (goes ? size : 0);
  };
  size_t changes = 0;
  // Callees before callers: a callee's copy already holds what was inlined
  // into it, so one application reaches what the size rules allow.
  for (size_t f : calls.postorder) {
    // One graph for the function's splices: each appends its copy after
    // every node and keeps the other ids, so the sites found first stay
    // valid, and the single finish() gives the order that finishing after
    // each splice would (live nodes in their order).
    std::vector<std::pair<NodeId, size_t>> sites;  // call, callee
    auto candidate = [&](const Node& nd) {
      if (nd.op != Op::Call) return false;
      size_t callee = callee_of(fns[f], nd, census.index);
      return callee != std::string::npos && callee != f && wanted(callee);
    };
    if (std::none_of(fns[f].nodes.begin(), fns[f].nodes.end(), candidate)) continue;  // no Graph to build
    Graph g(fns[f]);
    for (NodeId n = 0; n < g.size(); ++n) {
      if (g.op(n) != Op::Call) continue;
      size_t callee = callee_of(fns[f], g.node(n), census.index);
      if (callee != std::string::npos && callee != f && wanted(callee) && arguments_fit(g, n, fns[callee]))
        sites.emplace_back(n, callee);
    }
    size_t total = g.live_count();
    for (auto [call, callee] : sites) total += fns[callee].nodes.size();
    if (total > kCallerBudget) order_by_loop_depth(g, sites);
    size_t spliced = 0;
    uint16_t protect = 0;
    WalkMarks marks;
    int64_t labels = last_label_number(fns[f], header);
    for (auto [call, callee] : sites) {
      if (g.live_count() + fns[callee].nodes.size() > kCallerBudget) continue;
      splice(g, call, fns[callee], marks, fns[f].name, labels);
      protect |= fns[callee].attrs.hints & kHintStackProtect;
      ++spliced;
    }
    if (spliced > 0) {
      g.finish();
      // The callee's arrays now live in this frame: its canary comes along.
      fns[f].attrs.hints |= protect;
      scope.mark_changed(f);
    }
    changes += spliced;
  }
  if (changes) changes += drop_unreferenced(fns, header, scope);
  return changes;
}

}  // namespace pl::sonopt
