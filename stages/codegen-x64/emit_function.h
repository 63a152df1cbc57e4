// emit_function.h - one ra-x64 function as machine instructions (seed 001,
// "Code Generation": the value engine reads each value where its place
// says, the block linearization follows the module's block order).
//
// Input: a function at level ra-x64 (FORMAT.md section 8, "The ra-x64
// level"): every value has a place, every copy is a node, flags sit right
// before their user, phis take their inputs in their own place. The
// verifier (with the allocation checker) has normally proved that; what
// this translation still meets that it cannot encode (a value input with no
// register, a tied result in another register than its input, an address
// base that is not a register) is reported as a FormatError naming the
// function and node, never emitted wrongly.
//
// Translation, per node in block order:
//   - x64 instructions one to one (FORMAT.md's table); the address nodes
//     x64:stackslot / argslot / outarg emit nothing and are folded into the
//     addresses that use them as their base ([rsp + offset], frame.h);
//     x64:argreg, x64:entryreg, proj, phi, region, start, entrymem and
//     undefined emit nothing (their value already is in its place);
//   - x64:mov / spill / reload / xchg: mov, store, load, xchg on 64 bits;
//     the spill of an x64:entryreg in the entry block is the callee-saved
//     register's save, so it also gets a .cfi_offset (the unwinder and gdb
//     then find the caller's value); the reloads before x64:ret restore it;
//   - x64:call: `mov $al, %eax` first for a variadic callee, then a call
//     through the PLT; x64:ret: the epilogue (frame.h); with --sibling-calls
//     an x64:call right before an x64:ret that returns its result (only
//     restores between) emits nothing, and the x64:ret is the epilogue and
//     `jmp f` (sibling_calls.h);
//   - a volatile load whose value no proj takes is `cmp $0, mem` (the flags
//     are dead there: every flags value sits right before its only user).
// Blocks: each starts with a label; a jump to the next block is left out
// (fall-through); an x64:jcc whose not-taken successor is next is one jcc,
// one whose taken successor is next is the jcc with the negated condition,
// otherwise a jcc and a jmp. Edges: a phi whose input is in another place
// than the phi (ra-x64 forbids it; possible only with --no-verify) gets a
// parallel move (parallel_move.h) at the end of a one-successor
// predecessor; on a branch edge it is reported as an error (the critical
// edge should have been split).
//
// Narrow two-address results whose instruction has no 8-bit form (imul,
// cmov) are computed at 32 bits: the low 8 bits are right, bits 8-63 are
// not those of the tied input (FORMAT.md keeps them; no lowering reads them).
#pragma once

#include "ir/ir.h"
#include "dwarf.h"
#include "mc_emitter.h"

namespace pl::x64 {

// Emits `fn` (level ra-x64) into `out`: label, prologue, blocks, epilogues.
// Throws FormatError (bad input, names the node) or std::logic_error (a bug).
// `dwarf`: with -g and the module's debug section, gets the function's DIEs.
void emit_function(McEmitter& out, const Function& fn, DwarfWriter* dwarf = nullptr);

}  // namespace pl::x64
