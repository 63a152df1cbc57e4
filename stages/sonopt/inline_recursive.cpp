// inline_recursive.cpp - recursive inlining: a function that calls itself
// gets copies of its own body in place of its self calls, a bounded number
// of levels deep, so that most calls of the recursion (in a binary
// recursion, half the calls are leaves that return at once) run as
// branches in the frame of a call further up (gcc's recursive inlining:
// ipa-inline.cc, recursive_inlining and want_inline_self_recursive_call_p,
// with its limits max-inline-recursive-depth-auto, 8 levels, and
// max-inline-insns-recursive-auto, 450 size units; `objdump -d` of gcc -O2's
// build of scripts/kernels/hanoi.c shows the self call nested 8 deep).
//
// Algorithm (one application, on one function f):
//  1. f qualifies when it calls itself directly (a `call` of `symaddr f`),
//     is not marked noinline or recursion_inlined, is not weak (the linker
//     may pick another body) or variadic, has a return and no alloca,
//     frameaddress or returnaddress (inline.cpp's reasons), and has at most
//     kMaxSize nodes (a quarter of kBudget: three copies at least fit).
//  2. The copy is f as it is: tail-recurse (scheduled first) has turned the
//     self calls in tail position into a loop, so only the calls that need a
//     frame of their own are left, and the cleanup passes have run.
//  3. f's own self calls are level 1; splicing the copy into a call of level
//     k (inline.cpp's splice) makes the copy's self calls level k + 1. The
//     calls are taken level by level, in a level the ones in deeper loops
//     first (the loop depth of a copy's call adds to that of the call it
//     replaced; ties in node order), while f stays within kBudget nodes and
//     the level within kMaxDepth. Every copy is of the body before this
//     application, so a call left in the deepest copies calls f itself: a
//     recursion that goes deeper goes on there, a copy's worth of levels at
//     a time.
//  4. f is marked recursion_inlined (FORMAT.md section 1, the hints): later
//     applications, and a second sonopt run, leave it alone, so copies are
//     never copied again and -O2 stays idempotent (a bound by size alone
//     would not be: the cleanup after an application can shrink f below it
//     again).
// Debug value bindings: splice copies none, so a copy's values show as
// optimized out in a debugger, never as the outer call's variables; f's
// own bindings stay on f's nodes, and one on the call's result follows
// replace_uses to the copy's returned value (graph.h), the same value.
// Label addresses: each copy's labels are renamed by splice as inline's
// copies are (inline.cpp, "Label addresses"), numbered after every label
// f and the earlier copies use.
// Invariants needed and kept: the son contract (splice's).
#include <algorithm>

#include "loops.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr size_t kBudget = 600;  // nodes f may grow to (gcc: 450 size units)
constexpr uint32_t kMaxDepth = 8;  // levels of copies (gcc: 8)
// A function this small, so that three copies at least fit: one copy of a
// larger one (an interpreter's switch with a self call in every case,
// scripts/kernels/prog_treeinterp.c) saves one call in a few and makes
// the whole function slower (10% more instructions there).
constexpr size_t kMaxSize = kBudget / 4;

bool is_self_call(const Function& fn, const Node& nd) {
  if (nd.op != Op::Call) return false;
  const Node& target = fn.nodes[nd.inputs[1]];
  return target.op == Op::SymAddr && target.literals[0].as_string() == fn.name;
}

bool qualifies(const Function& fn) {
  const SymbolAttrs& a = fn.attrs;
  if (a.weak || a.has(kHintNoinline) || a.has(kHintRecursionInlined) || fn.signature.variadic) return false;
  if (fn.nodes.size() > kMaxSize) return false;
  if (std::none_of(fn.nodes.begin(), fn.nodes.end(), [&](const Node& nd) { return is_self_call(fn, nd); }))
    return false;
  return has_return(fn) && !has_alloca(fn);
}

struct Site {
  NodeId call;     // in the graph being grown
  uint32_t depth;  // loops around it, counting those of the calls it sits in
};

}  // namespace

size_t inline_recursive(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!qualifies(fn)) return 0;
  const Function copy = fn;  // the body every level copies
  Graph g(fn, cache);
  // f's self calls with their loop depth: level 1, and (the same ids in the
  // copy) the calls each copy brings.
  std::vector<Site> own;
  {
    auto cfg = g.son_cfg();
    LoopForest forest = find_loops(g, *cfg);
    std::vector<uint32_t> depth(cfg->blocks.size(), 0);
    for (const Loop& loop : forest.loops)
      for (uint32_t b : loop.blocks) ++depth[b];
    for (NodeId n = 0; n < g.size(); ++n)
      if (is_self_call(copy, copy.nodes[n]) && arguments_fit(g, n, copy))
        own.push_back({n, depth[cfg->block_of_node(g, n)]});
  }
  WalkMarks marks;
  int64_t labels = last_label_number(fn, header);
  size_t spliced = 0;
  std::vector<Site> level = own;
  for (uint32_t k = 1; k <= kMaxDepth && !level.empty(); ++k) {
    std::stable_sort(level.begin(), level.end(), [](const Site& a, const Site& b) { return a.depth > b.depth; });
    std::vector<Site> next;
    for (const Site& site : level) {
      if (g.live_count() + copy.nodes.size() > kBudget) break;
      std::vector<NodeId> map = splice(g, site.call, copy, marks, fn.name, labels);
      ++spliced;
      for (const Site& s : own) next.push_back({map[s.call], site.depth + s.depth});
    }
    level = std::move(next);
  }
  if (spliced == 0) return 0;
  g.finish();
  fn.attrs.hints |= kHintRecursionInlined;
  return spliced;
}

}  // namespace pl::sonopt
