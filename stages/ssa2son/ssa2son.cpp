// ssa2son - from CFG+SSA to sea of nodes: reads an `ssa` module, writes a
// `son` module (only the node graph; no cfg or dominance section).
//
// Algorithm (linear, one function at a time):
//  - each `if` becomes the tuple it is at son: two new nodes `proj 0` (true)
//    and `proj 1` (false) read it, and the region of its successor k lists
//    proj k where it listed the `if` (successor order: true first). An `if`
//    whose two successors are the same block is listed twice by that region:
//    the first occurrence becomes proj 0, the second proj 1 (both edges come
//    from the same block, so the phi inputs of the two are equal anyway);
//  - a block holding an effect (a memory operation other than a load) and a
//    division that may trap gives each such division a block of its own
//    (a jump into a new one-input region before it and after it): at son a
//    division has no memory input, so nothing else would keep it after the
//    call before it (`exit(0); return a % b;`) or before the store after it;
//  - ssa:phi -> phi, ssa:undefined -> undefined;
//  - the cfg and dominance sections are dropped. Pure nodes had no control
//    input at the cfg levels already, so dropping the block placement makes
//    them float. Pinned nodes (phis, params, memory operations, calls,
//    divisions, terminators) keep their block node as control; effects stay
//    ordered by the memory-state edges that ast2cfg and cfg2ssa made explicit.
//
// Decisions:
//  - A block entered only from an `if` keeps its one-input region over the
//    proj (we do not hang its nodes off the proj itself): every block keeps
//    its block node and its id, so every son block starts with start/region
//    and later stages (the interpreter, son2cfg) see one shape for all
//    blocks; a one-input region is trivial for an optimizer to fold.
//  - Ids: every node keeps its id, so iN at ssa is iN at son; the projs are
//    appended after the last node, in block order (true, then false), and
//    carry the `if`'s location. `pipe-fmt --renumber` gives the canonical
//    sea-of-nodes numbering when wanted.
//  - Debug information: the slots and cfg2ssa's value bindings name nodes
//    that keep their ids, so they carry over as they are (a binding is no
//    input: it keeps nothing alive in sonopt).
//
// Invariants needed: the ssa contract (FORMAT.md section 3 C), verified on
// input by default. The transformation itself indexes only the cfg section's
// own block nodes and successor lists (structural rules the reader
// enforces), and reports a region that does not list its predecessor's `if`
// instead of crashing (only possible with --no-verify).
// Invariants kept (the son contract, section 3 D): exactly one start; every
// pinned node hangs off start, a region or an if's proj; regions list jumps
// and projs; an `if` is read only by its two projs; cycles go through phis
// and region controls only (as at ssa).
// Departure from the seed: the seed leaves the control representation at son
// open; we use FORMAT.md's (projections of the `if` tuple, seed 003's rule
// for nodes with several results).
#include <algorithm>
#include <optional>
#include <string>

#include "ir/eval.h"

#include "tool/tool.h"

namespace pl {

namespace {

NodeId add_proj(Function& fn, NodeId tuple, int64_t index) {
  Node proj;
  proj.op = Proj;
  proj.literals = {Literal::integer(index)};
  proj.inputs = {tuple};
  proj.loc = fn.nodes[tuple].loc;
  fn.nodes.push_back(std::move(proj));
  return static_cast<NodeId>(fn.nodes.size() - 1);
}

// The region of `target` lists `branch` (its first remaining occurrence)
// through `proj` instead.
void route_through_proj(Function& fn, NodeId branch, NodeId target, NodeId proj) {
  ControlList& controls = fn.nodes[target].control;
  auto it = std::find(controls.begin(), controls.end(), branch);
  if (it == controls.end())
    throw FormatError(Where::in(fn.name, node_name(target)),
                      "the block is a successor of " + node_name(branch) + " but its region does not list it");
  *it = proj;
}

void split_branches(Function& fn) {
  for (const Block& block : fn.cfg->blocks) {
    if (block.nodes.empty()) continue;
    NodeId branch = block.nodes.back();
    if (fn.nodes[branch].op != If) continue;
    if (block.successors.size() != 2)
      throw FormatError(Where::in(fn.name, node_name(branch)), "an if block needs exactly 2 successors");
    for (int64_t k = 0; k < 2; ++k) {
      NodeId proj = add_proj(fn, branch, k);
      route_through_proj(fn, branch, block.successors[k], proj);
    }
  }
}

// A division whose divisor is not a constant other than 0 (and -1 for the
// signed ones, INT_MIN / -1): it may trap.
bool may_trap(const Function& fn, const Node& n) {
  if (n.op != SDiv && n.op != UDiv && n.op != SRem && n.op != URem) return false;
  const Node& d = fn.nodes[n.inputs[1]];
  if (d.op != Const || d.literals.size() < 2 || !d.literals[1].is_int()) return true;
  std::optional<ValueType> t = literal_value_type(d.literals[0]);
  if (!t) return true;
  uint64_t v = const_value(d.literals[1], type_bits(*t));
  bool is_signed = n.op == SDiv || n.op == SRem;
  return v == 0 || (is_signed && v == width_mask(type_bits(*t)));
}

// An effect a trapping division must not pass: a memory operation other
// than a plain load (calls, stores, volatile accesses, copies, asm, ...).
bool is_effect(const Node& n) { return n.op < kNumOps && op_info(n.op).has(MEMORY) && n.op != Load; }

// A division that may trap has no memory input, so in one son block nothing
// would order it against the block's effects: son2cfg could run it before a
// call that exits, or after a store or call that should not have happened.
// In a block holding both, every such division gets a block of its own: a
// jump ends the block before it, and another after it, each into a new
// one-input region; the pinned nodes after the split hang off the new
// region. simplify-cfg never joins such blocks again (simplify_cfg.cpp).
void isolate_trapping_divisions(Function& fn) {
  for (size_t b = 0; b < fn.cfg->blocks.size(); ++b) {
    const Block& block = fn.cfg->blocks[b];
    bool effect = false, division = false;
    for (NodeId n : block.nodes) {
      effect = effect || is_effect(fn.nodes[n]);
      division = division || may_trap(fn, fn.nodes[n]);
    }
    if (!effect || !division) continue;
    const NodeId original = block.node;
    std::vector<NodeId> order = block.nodes;
    NodeId current = original;  // the control point pinned nodes hang off from here on
    bool pinned_since = false;  // a pinned node (not a phi) hangs off `current` already
    auto split = [&](Loc loc) {
      Node jump;
      jump.op = Jump;
      jump.control = {current};
      jump.loc = loc;
      fn.nodes.push_back(std::move(jump));
      Node region;
      region.op = Region;
      region.control = {static_cast<NodeId>(fn.nodes.size() - 1)};
      region.loc = loc;
      fn.nodes.push_back(std::move(region));
      current = static_cast<NodeId>(fn.nodes.size() - 1);
      pinned_since = false;
    };
    for (size_t i = 0; i < order.size(); ++i) {
      Node& n = fn.nodes[order[i]];
      if (n.control.empty() || n.control[0] != original || n.op == Phi || n.op == SsaPhi) continue;
      bool trapping = may_trap(fn, n);
      if (trapping && pinned_since) split(n.loc);
      fn.nodes[order[i]].control[0] = current;
      pinned_since = true;
      if (trapping) split(fn.nodes[order[i]].loc);
    }
  }
}

void rename_ssa_opcodes(Function& fn) {
  for (Node& n : fn.nodes) {
    if (n.op == SsaPhi) n.op = Phi;
    else if (n.op == SsaUndef) n.op = Undef;
  }
}

void build_son(Function& fn) {
  split_branches(fn);
  isolate_trapping_divisions(fn);
  rename_ssa_opcodes(fn);
  fn.cfg.reset();
  fn.dominance.reset();
}

}  // namespace

}  // namespace pl

int main(int argc, char** argv) {
  pl::Tool tool({"ssa2son", "From CFG+SSA to sea of nodes: drop the blocks, float pure nodes (ssa -> son).",
                 "  cfg2ssa f.cfg | ssa2son | pipe-run\n"
                 "  pipe-gen --level ssa --seed 3 | ssa2son -f text"});
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input(pl::Level::Ssa);
    pl::ModuleHeader header = in.header();
    header.level = pl::Level::Son;
    t.open_output(header);
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      if (!fn.cfg) throw pl::FormatError(pl::Where::in(fn.name, "cfg"), "the function has no cfg section");
      pl::build_son(fn);
      t.write(fn);
    }
    t.finish_output();
  });
}
