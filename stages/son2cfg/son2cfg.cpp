// son2cfg - from sea of nodes to ordered basic blocks: reads a `son` module
// and writes an `ssa` module, or reads `son-x64` and writes `cfg-x64`; the
// output carries the cfg and dominance sections (seed 002, "Sea-of-Nodes to
// CFG": "Scheduling algorithm generates blocks and puts the nodes at proper
// positions into them ... Blocks are ordered to optimize amount of jumps").
//
// Algorithm, one function at a time (each step is a file; son2cfg.h lists
// them):
//  1. flow: blocks from the control nodes. A block starts at start, a region,
//     or an if's proj that pinned nodes hang off; it ends with its one
//     terminator. An if's proj 0/1 become the if's two successors, true
//     first. Only blocks reachable from start are kept.
//  2. Dominator tree (common/dominance: Cooper-Harvey-Kennedy) and loop
//     nesting forest (loop_tree.cpp: natural loops, inner loops first).
//  3. Global code motion after Click, "Global Code Motion / Global Value
//     Numbering" (PLDI 1995): pinned nodes (those with a control input:
//     memory operations, calls, divisions, phis, params, terminators) stay
//     in their block; every floating node is scheduled early (the deepest
//     block of its inputs), then late (the LCA of its uses' blocks, a phi's
//     use at the corresponding predecessor, clamped above every node that
//     overwrites the memory state it reads), then put in the block of least
//     loop depth between the two (the deepest on ties). Loop invariants
//     leave loops; code one branch uses sinks into it. A cheap node whose
//     uses lie in several branches below its latest block, and that no
//     loop drew above it, is copied into those branches instead (partial
//     dead code elimination: the paths that do not use it no longer
//     compute it; schedule_late.cpp says when).
//  4. Local scheduling (local_schedule.cpp): phis first, Kahn's ready list
//     (seed 000) by longest dependency chain to the block's end (seed 004),
//     then register pressure, then node id (register pressure first while
//     more than a few of the block's values are live); memory order respected (a load
//     before any store of the block that overwrites its memory); the
//     terminator last, an x64 flags producer right before its consumer.
//  5. Block order (block_order.cpp): reverse postorder with each loop
//     contiguous, the likely successor falling through, loops rotated so
//     that an iteration costs one jump.
//  6. Emit (emit.cpp): the cfg-level nodes, cfg and dominance sections.
//
// Decisions:
//  - No empty blocks are added and critical edges are not split: the cfg
//    levels allow both, and regalloc-x64 splits the edges it needs.
//  - The dominance section is computed by common/ir/dominance.cpp (as cfg2ssa
//    does); the verifier checks it against its own Lengauer-Tarjan.
//  - Node ids keep their relative order (emit.cpp), a copy right after its
//    original; `ssa2son | son2cfg` gives the ssa ids back where nothing was
//    copied. Output is deterministic: every choice breaks ties by block
//    discovery order or node id, never by address or hash.
//  - Copies are bounded: at most 16 placements of one node, only of nodes
//    with at most two inputs, and only where some path gains. No copy is in
//    a deeper loop than the block the node would have had, and a pass
//    through that block reaches at most one of the copies.
//  - Input that has no legal schedule (a node whose inputs are on two
//    unrelated branches, a use its definition does not dominate, a load that
//    would have to run both before and after a store) is bad input: exit 1
//    naming the node, never an output that fails verification.
//
// Invariants needed: the son / son-x64 contract (FORMAT.md section 3 D),
// verified on input by default; the shapes the scheduler indexes by are
// checked again in flow.cpp, so --no-verify input is diagnosed, not crashed
// on. Invariants kept: the ssa / cfg-x64 contract (section 3 C): one block
// per block node, every other node placed once (a copy is a node of its
// own, its uses pointed at it), phis first and the
// terminator last, region control inputs equal to the cfg edges, definitions
// dominating uses (by construction: every node goes to a block between its
// earliest and latest legal ones, and within a block after its inputs),
// every block reachable, the dominance section exact.
// Cost: O(n log n) in the function's size (binary-lifted LCA and path minima,
// heaps in the local scheduler; a copied node's uses are sorted once per
// split, at most 15 splits), apart from Cooper-Harvey-Kennedy, which is
// near-linear in practice and quadratic on pathological graphs.
// Departures from the seeds: seed 004 schedules statements onto threads with
// the longest dependency chain deciding; we use the same priority to order
// one block's instructions for one core. Seed 000's Kahn ready queue is a
// priority queue here. Departures from Click: see schedule_late.cpp (shifts
// that may fail are not hoisted; binary lifting; copies of cheap nodes
// into the branches that use them).
#include <algorithm>

#include "son2cfg.h"
#include "tool/tool.h"

namespace pl::son2cfg {

namespace {

TreeIndex index_dominators(const DomTree& dom) {
  std::vector<uint32_t> parent(dom.idom.size());
  for (size_t b = 0; b < parent.size(); ++b) parent[b] = dom.idom[b] == DomTree::kNone ? kNone : dom.idom[b];
  return TreeIndex(parent, dom.rpo);
}

}  // namespace

Function schedule_function(Function& fn, Level out_level, const x64::ColdCallees& cold) {
  Graph g = find_flow(fn);
  g.out_level = out_level;
  g.cold = &cold;
  DomTree dom = compute_dom_tree(g.flow.graph);
  TreeIndex domi = index_dominators(dom);
  Loops loops = find_loops(g, dom, domi);
  std::vector<uint32_t> early;
  std::vector<NodeId> postorder = schedule_early(g, domi, early);
  schedule_late(g, domi, loops, early, postorder);
  std::vector<std::vector<NodeId>> schedule = schedule_blocks(g);
  std::vector<uint32_t> layout = order_blocks(g, dom, domi, loops);
  if (layout.size() != g.flow.head.size()) throw std::logic_error("block layout lost a block");
  return emit_function(g, dom, layout, schedule);
}

}  // namespace pl::son2cfg

int main(int argc, char** argv) {
  pl::Tool tool({"son2cfg",
                 "From sea of nodes to ordered basic blocks: global code motion, local scheduling, block order "
                 "(son -> ssa, son-x64 -> cfg-x64).",
                 "  ssa2son f.ssa | son2cfg | pipe-run\n"
                 "  pipe-gen --level son --seed 3 | son2cfg -f text"});
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input();
    pl::ModuleHeader header = in.header();
    if (header.level == pl::Level::Son) header.level = pl::Level::Ssa;
    else if (header.level == pl::Level::SonX64) header.level = pl::Level::CfgX64;
    else
      throw pl::FormatError(pl::Where{}, "expected a module at level 'son' or 'son-x64', found level '" +
                                             std::string(pl::level_name(in.header().level)) + "'");
    t.open_output(header);
    const pl::x64::ColdCallees cold(header);
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      t.write(pl::son2cfg::schedule_function(fn, header.level, cold));
    }
    t.finish_output();
  });
}
