// parallel_move.h - the parallel move engine (seed 001, "Parallel Move
// Engine"): turns a set of moves meant to happen at once (at block edges in
// place of phis, around calls, at entry) into a sequence of x86 moves and
// exchanges that has the same effect.
//
// Algorithm. A move whose destination no other pending move still reads is
// ready and is emitted; among the ready moves the seed's order decides:
// (1) saves, register to stack, which free registers early; (2) stack to
// stack, which goes through a register; (3) register to register; (4)
// loads, stack to register, last, when nothing reads the registers they
// overwrite. When nothing is ready, the pending moves are disjoint cycles
// (every destination is read by exactly one pending move). A cycle of
// registers is rotated in place with k-1 `xchg`s. A cycle through the stack
// is broken by a scratch register: one value is copied aside, its reader
// redirected to the copy, and the cycle becomes a chain.
//
// Scratch registers are the caller's `free` set: registers that hold no live
// value at the move point. Without one, a stack-to-stack move borrows a
// register and gives it back (xchg B,[src]; mov [dst],B; xchg B,[src]), and
// a cycle is rotated with xchg through one of its registers or, all stack,
// through a borrowed one. Those exchanges with memory are slow (x86 locks
// them) but are only the fallback.
//
// Invariants needed: destinations distinct (else std::logic_error).
// Guaranteed: every destination ends with its source's value as it was
// before the first operation; every other location, borrowed registers
// included, ends as it was, except the free registers; no operation has two
// memory operands. tests/codegen-x64/parallel_move.cpp checks it on every
// parallel move over a few registers and slots by simulation.
//
// Departure from the seed: its swap step through memory is not spelled out
// ("If one is not found, ..."); the borrowed-register exchanges fill it in.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "x64/x64.h"

namespace pl::x64 {

// A register or a stack slot (identified by its offset in the frame; the
// engine only compares them). Every location holds 64 bits.
struct Location {
  enum class Kind : uint8_t { Register, Stack };
  Kind kind = Kind::Register;
  Reg reg = Reg::Rax;
  int32_t slot = 0;

  static Location r(Reg reg) { return Location{Kind::Register, reg, 0}; }
  static Location stack(int32_t slot) { return Location{Kind::Stack, Reg::Rax, slot}; }
  bool is_reg() const { return kind == Kind::Register; }
  bool operator==(const Location& o) const {
    return kind == o.kind && (kind == Kind::Register ? reg == o.reg : slot == o.slot);
  }
};
std::string to_string(const Location& loc);

struct Move {
  Location dst, src;
};

// One instruction: `dst = src` (mov, load or store) or an exchange.
struct MoveOp {
  enum class Kind : uint8_t { Move, Xchg };
  Kind kind = Kind::Move;
  Location dst, src;  // for Xchg: the two locations (dst is a register if either is)
};

std::vector<MoveOp> sequentialize_moves(std::span<const Move> moves, RegMask free);

}  // namespace pl::x64
