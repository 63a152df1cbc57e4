// cfg2ssa - SSA construction: reads a `cfg` module (locals in ssa:load /
// ssa:store slots), writes an `ssa` module (slots replaced by values and
// ssa:phi nodes, cfg and dominance sections).
//
// Algorithm (one function at a time, passes in ssa_build.h):
//  - dominator tree and dominance frontiers: Cooper, Harvey, Kennedy, "A
//    Simple, Fast Dominance Algorithm" (2001), common/ir/dominance.h;
//  - phi placement: Cytron et al. (1991) iterated dominance frontiers,
//    pruned by per-slot liveness (Choi, Cytron, Ferrante 1991), so a phi
//    is placed only where its slot is live on entry (place_phis.cpp);
//  - renaming: Cytron et al.'s walk of the dominator tree with a stack of
//    definitions per slot, iterative (rename.cpp);
//  - cleanup: rewire uses of loads, remove the phis that liveness could not
//    rule out but nothing reads (finish.cpp).
// Slots may hold values or memory states (ast2cfg threads memory through
// slot 0); a phi of a memory slot is a memory phi, and nothing else differs.
//
// Invariants needed (the cfg contract, FORMAT.md section 3 C; the input is
// verified by default): blocks end with their terminator, regions list their
// predecessors' terminators, every block is reachable, definitions dominate
// uses. read_cfg_shape rechecks what would otherwise crash or leave a
// dangling use, so --no-verify input gets a diagnostic, not a crash. Also
// one kind per slot (FORMAT.md "Memory at the cfg level"), which the
// verifier does not check yet: check_slot_kinds does, on every input.
// Invariants kept (the ssa contract): no ssa:load / ssa:store is left; a
// load with no reaching definition becomes an ssa:undefined; phis open their
// block (control = the block's region, input i for control input i), the
// terminator stays last; every definition dominates its uses; no phi is
// dead (unused, transitively, by every non-phi); the dominance section is
// recomputed (one given at the cfg level is ignored). Node ids are compacted
// and canonical (block by block, see finish.cpp); every surviving node keeps
// its source location.
//
// Departures from the seed: the seed's ssa:phi "takes two inputs"; ours
// takes one per predecessor edge (merges of any number of predecessors, as
// FORMAT.md says). A pinned node's control is its block node, never a chain.
//
// Complexity: the dominator computation of common/ir/dominance.h, plus the sum
// over slots of their live-in blocks and frontier walks, plus a sort of the
// slot numbers and the canonical renumbering: n log n for the functions a C
// front end produces (each local live in part of the function).
#include "ssa_build.h"
#include "tool/tool.h"

namespace pl::ssa {

void build_ssa(Function& fn) {
  CfgShape shape = read_cfg_shape(fn);
  DomTree tree = compute_dom_tree(shape.graph);
  Slots slots = collect_slots(fn);
  check_slot_kinds(fn, slots);
  std::vector<std::vector<uint32_t>> phi_slots = place_phis(slots, shape.graph, tree);
  Renaming renaming = rename_slots(fn, shape, tree, slots, phi_slots);
  finish_ssa(fn, tree, renaming);
}

}  // namespace pl::ssa

int main(int argc, char** argv) {
  pl::Tool tool({"cfg2ssa", "Build SSA form: slots (ssa:load/ssa:store) become values and phis (cfg -> ssa).",
                 "  ast2cfg f.ast | cfg2ssa | ssa2son\n"
                 "  pipe-gen --level cfg --seed 3 | cfg2ssa -f text"});
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input(pl::Level::Cfg);
    pl::ModuleHeader header = in.header();
    header.level = pl::Level::Ssa;
    t.open_output(header);
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      if (!fn.cfg) throw pl::FormatError(pl::Where::in(fn.name, "cfg"), "the function has no cfg section");
      pl::ssa::build_ssa(fn);
      t.write(fn);
    }
    t.finish_output();
  });
}
