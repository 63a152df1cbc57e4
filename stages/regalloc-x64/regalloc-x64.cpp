// regalloc-x64 - register allocation: reads a `cfg-x64` module, writes an
// `ra-x64` module (FORMAT.md section 8, "The ra-x64 level"): every value in
// a register or a spill slot, every move, exchange, spill and reload a node
// of its own, phis taking their inputs in their own place at the end of each
// predecessor, the callee-saved registers used saved in the prologue and
// restored before each return.
//
// Pipeline (seed 001, one file per section, each with its own header):
//   critical_edges.cpp   Critical Edge Removal (safe blocks)
//   address_values.cpp   address nodes used as values get an x64:lea
//   unit.cpp             block graph, value nodes, single-input phis folded
//   usage.cpp            Usage Table Calculation (next-use distances)
//   releases.cpp         Release Table Calculation
//   liveness.cpp         Block Liveness Analysis (with distances)
//   save_emission.cpp    Save Emission (System V: callee-saved registers first)
//   assignment.cpp       Class Allocation, Assumption Propagation, Register
//                        Assignment per block and per unit (x86 restrictions:
//                        two-address, fixed registers, exchanges)
//   edge_moves.cpp       the parallel move at the end of a merge's
//                        predecessor (phis and live values into the merge's
//                        places; cycles by xchg or through a fresh slot)
//   collapse.cpp         Block Collapsing (trivial phis, empty safe blocks,
//                        canonical numbering, dominance)
//   stack_map.cpp        Stack Interval and Stack Map Calculation (slots shared)
// Needs (the cfg-x64 contract, checked on input): x64 opcodes only, blocks
// with region-control order, a flags producer right before its user, address
// nodes (x64:stackslot/argslot/outarg) defined in the entry block,
// x64:argreg nodes in the entry block.
// Keeps (the ra-x64 contract, FORMAT.md section 8 "The ra-x64 level"): the
// same graph with a place for every value, copies as nodes, phis with
// their inputs in the phi's place at the end of each predecessor, the
// callee-saved registers used saved once and restored before each return,
// dominance recomputed, nodes renumbered canonically.
// The seed's "Assignment Verification" is common/check/alloc_check.cpp, written
// apart from this stage: the tool verifies its output by default, so every
// allocation is checked.
//
// Departures from the seed (each file says more):
//  - System V: rbx, rbp and r12-r15 belong to the caller. Values live across
//    calls take them first (each saved once in the prologue, restored before
//    every return); the seed's save emission (spill to a slot around calls)
//    happens only when they run out. rsp is never allocated.
//  - Class allocation and register assignment run in one walk: spilling by
//    furthest next use happens when a register is needed, because fixed
//    registers decide which value must leave, which a count cannot.
//  - Constants (x64:movi, x64:fconst, x64:fzero, x64:lea of a symbol alone)
//    are never spilled: an evicted one is made anew by a copy of its
//    instruction where it is needed again (rematerialization); a definition
//    left unread then is dropped (collapse.cpp).
//  - Cold calls (x64::ColdCallees: of an extern with the hint cold or
//    noreturn, such as sqrt's errno call) are guessed rare: a value live
//    only across them takes no callee-saved register, and at one the
//    values that live on go to their slots (save_emission.cpp,
//    assignment.cpp).
//  - Moves are avoided by register hints the seed does not have: a value
//    read in a fixed register prefers it, a phi's inputs prefer the phi's
//    register (phi coalescing), a tied input that lives on stays put and
//    the instruction overwrites a copy (assignment.cpp).
//  - Flags are never spilled: a compare is emitted right before its user,
//    with the moves its user needs before both.
//  - Constraints that depend on a node's literals, which the opcode table's
//    columns cannot state, come from x64::forbidden_input_regs (shared with
//    the allocation checker): the callee of a variadic x64:callind is never
//    in rax, which the call sequence sets to al first (issue 17). An
//    x64:asm's operands and clobbers come from its literals too
//    (x64::node_constraints): son-lower-x64 chose a register for every
//    operand, so each is a fixed register here, as a call's arguments are,
//    and a callee-saved register it clobbers is saved like one it uses.
//
// Invariants that keep the allocator from running out of registers (the
// seed's class allocation counts; this stage relies on bounds instead, and
// its assertions name the function, block, instruction and constraint when
// one fails): an instruction locks only the registers of its own operands
// and results (at most 7 and 2 of the 15), so pick() always finds one to
// evict; a merge gets at most 14 registers as entry places, so after an
// edge's parallel move one register is left in which a constant the merge
// wants in a slot is made anew and stored (before the move, every register
// may hold a source it still reads: issue 22, tests/stages/regalloc-x64/
// merge-consts).
//  - Two register classes (seed 001, "Class Allocation"; x64.h): general
//    registers for integers and pointers, xmm0-xmm15 for f32/f64 values
//    (x64.h value_classes: a value's class is its type's; copies and phis
//    take their inputs'). Each value is placed only in its class: every
//    choice of a register (a free one, the furthest-next-use victim, a
//    hint, a merge's entry register, a scratch for an edge move) is made
//    among the registers of the value's class, in that class's order, and
//    a merge takes at most 14 entry registers of each class. All xmm
//    registers are caller-saved (System V), so an xmm value live across a
//    call is spilled at the call (step 3 of assignment.cpp: the call's
//    clobbers include xmm0-xmm15 and no free xmm survives it) and reloaded
//    at its next use; nothing prefers callee-saved registers for it. There
//    is no xchg for xmm registers: a fixed-register input is general only
//    (no exchange is needed), and on an edge a cycle of xmm moves is broken
//    through a free xmm register (movaps) or, when none is free, a fresh
//    slot (edge_moves.cpp). Slots hold 8 bytes of either class. The
//    checker (common/check/alloc_check.cpp) verifies each place's class.
//
// --stats prints, per function, the spills, reloads, moves and exchanges
// inserted (the callee-saved saves and restores included).
#include <iostream>

#include "regalloc.h"
#include "tool/tool.h"

namespace pl {

namespace {

ra::Stats allocate(Function& fn, bool frame_pointer, const x64::ColdCallees& cold) {
  ra::Stats stats;
  if (!fn.cfg || fn.cfg->blocks.empty()) return stats;
  const size_t first_safe = fn.cfg->blocks.size();
  ra::split_critical_edges(fn);
  ra::materialize_addresses(fn);
  ra::fold_single_phis(fn);
  uint32_t slots = ra::assign_registers(fn, stats, frame_pointer, cold);
  const uint32_t before = slots;
  ra::emit_callee_saves(fn, slots);
  stats.spills += slots - before;  // one save per callee-saved register
  for (const Block& b : fn.cfg->blocks)
    if (!b.nodes.empty() && fn.nodes[b.nodes.back()].op == X64Ret) stats.reloads += slots - before;
  ra::collapse_blocks(fn, first_safe);
  ra::share_slots(fn);
  return stats;
}

}  // namespace

}  // namespace pl

int main(int argc, char** argv) {
  pl::Tool tool({"regalloc-x64", "allocates registers: cfg-x64 to ra-x64",
                 "son-lower-x64 f.son | son2cfg | regalloc-x64 | pipe-fmt -f text"});
  bool stats = false;
  tool.cli().add_flag("--stats", stats, "print spills, reloads, moves and exchanges per function (stderr)");
  bool frame_pointer = false;
  tool.cli().add_flag("--frame-pointer", frame_pointer,
                      "keep rbp for the frame pointer in every function (gcc's -fno-omit-frame-pointer; codegen-x64 "
                      "--frame-pointer then builds the rbp chain); without it only functions with a dynamic stack");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input(pl::Level::CfgX64);
    pl::ModuleHeader header = in.header();
    header.level = pl::Level::RaX64;
    t.open_output(header);
    const pl::x64::ColdCallees cold(header);
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      pl::ra::Stats s = pl::allocate(fn, frame_pointer, cold);
      if (stats)
        std::cerr << "regalloc-x64: " << (fn.name.empty() ? "\"\"" : fn.name) << ": " << s.spills << " spills, "
                  << s.reloads << " reloads, " << s.moves << " moves, " << s.exchanges << " exchanges\n";
      t.write(fn);
    }
    t.finish_output();
  });
}
