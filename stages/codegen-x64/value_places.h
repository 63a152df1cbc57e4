// value_places.h - where the values bound to debug variables are, node by
// node, in an ra-x64 function (the location lists of optimized code).
//
// A variable bound to value nodes (DebugVar::value: an unchanged
// parameter's x64:argreg; FunctionDebug::binds: each assignment the
// optimizers kept as a value, cfg2ssa's bindings) has, at each point, the
// value of the last of its bindings the code computed on every path to the
// point (its *current* value), and is wherever that value or a copy of it
// is: the allocator moves, spills, reloads and exchanges it, each copy a
// node with its own place. ValuePlaces answers, at each point of the code
// generator's walk, which place holds each bound variable's current value
// for certain, so that a debugger never reads a place that holds something
// else ("optimized out" instead). A variable with a lost binding (an
// assignment whose value no code computes any more) is not bound at all:
// after that assignment the last computed binding would be stale.
//
// ALGORITHM. The forward dataflow of the allocation checker
// (common/check/alloc_check.cpp), on a smaller lattice: each location (the
// 32 registers and the spill slots) holds the *origin* of its value (the
// node it copies, through x64:mov, x64:spill, x64:reload and x64:xchg's
// projs; a phi whose inputs all have one origin has that origin, found by
// an optimistic fixpoint over the phis), or "unknown". A node makes every
// location it writes (its place, its tuple's result registers and its
// projs' places, its clobbers: x64.h constraints) hold its origin or
// unknown; an edge into a merge gives each phi's place the phi's origin;
// the meet at a join keeps an origin all predecessors agree on. At entry,
// each x64:argreg's register holds the argreg (the allocation checker
// proves nothing writes it before the argreg takes it). The same state
// holds each bound variable's current origin: a binding makes it unknown
// at the binding's position (after a memory state's node, or at a block's
// start) and its value's origin where that run of code ends (below), a
// kill makes it unknown, a join keeps what the
// predecessors agree on (else unknown), and at entry a parameter is its
// x64:argreg. A variable is shown where a place holds its current origin;
// a place holds an origin only once the code computed it on every path to
// the point, and then the latest computation (a definition dominates the
// point), so a value computed after its assignment (sunk toward its use)
// is shown from there on, and none is shown early: the end of the
// position's run, not the value's computation, is where the variable
// takes it.
//
// The run around an assignment (issue 20: "never a wrong value"). A
// position is the last effect before the assignment (or its block's
// start): the assignment happened after that effect and before the next
// effect of the block (or the block's end, its terminator), because effects
// keep their order and their block through every stage. Between the two
// effects pure code floats: the code of the statements before the
// assignment and of those after it is scheduled in any order (a constant
// made early, a GVN'd or hoisted value, a value computed ahead of a
// branch), so at an instruction of that run neither the old value nor the
// new one is known to be the variable's at that instruction's line. So a
// binding does not take effect at its position: it makes the variable
// unknown there ("optimized out") and *pending*, and the pending value
// becomes current right before the next effect's code or the block's
// terminator, where the assignment has happened for certain. A debugger
// thus shows, in a run of code between two effects, a variable only when
// no assignment to it lies in that run: its value is the same for the
// whole run, whatever order the run's code is in. Two refinements keep
// what is certain: a binding to the value the variable has already (a
// parameter's entry binding to its x64:argreg, `x = x`) changes nothing,
// and a kill makes the variable unknown at once (unknown is never wrong).
// The points gdb stops at (is_stmt rows: effects, loads, branches; calls'
// return addresses in outer frames) all lie in such runs; a pure
// instruction moved across an effect (a sunk or hoisted computation, no
// is_stmt row, only seen by stepping instructions) executes outside its
// statement's run, and the variable shows the value of the run it is in.
// (The alternative, a finer position from the assignment's source location
// compared with the line table, fails on loops, whose increment's line
// comes before the body it follows, and on code duplicated across paths.)
//
// What the code generator must keep: a node's code writes no place but
// those (the checker's contract, which the allocation relies on too); code
// that does more (a terminator's edge moves, x64:ret's epilogue) is
// covered by writes(): the ranges it may break end before it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/ir.h"

namespace pl::x64 {

class ValuePlaces {
 public:
  explicit ValuePlaces(const Function& fn);
  // No variable of the function is bound to a value.
  bool empty() const { return bound_var_.empty(); }
  // Per bound entry: the index (in fn.debug.vars) of its variable, and
  // the bytes of it the entry is (a piece: DebugBind offset and size; size
  // 0 for the whole variable). A variable bound in pieces has one entry
  // per piece; together they make a composite location (DW_OP_piece).
  const std::vector<size_t>& bound() const { return bound_var_; }
  struct Piece {
    uint32_t offset = 0, size = 0;
  };
  Piece piece(size_t i) const { return pieces_[i]; }

  // The walk, in emission order: each block, then each of its nodes.
  void begin_block(uint32_t b);
  // Whether `n`'s code may write `p` (then a range in `p` ends before it);
  // a terminator but x64:ret may write every place (edge moves, an
  // epilogue), x64:ret the callee-saved registers and the spill slots.
  bool writes(NodeId n, Place p) const;
  void after(NodeId n);
  // Before `n`'s code: if n is an effect or a terminator, the pending
  // bindings become current (the assignments happened before it); the
  // walk then opens ranges for them.
  void before(NodeId n);
  // Whether place `p` holds bound variable `i`'s current value now (a
  // range in `p` ends where this stops: the place was written, or the
  // variable was bound to another value).
  bool holds(size_t i, Place p) const;
  // A place that holds the current value of bound variable `i` (an index
  // into bound()) now and that `usable` accepts, if any.
  std::optional<Place> place_of(size_t i, const std::function<bool(Place)>& usable) const;

 private:
  static constexpr uint32_t kUnknown = UINT32_MAX;
  static constexpr uint32_t kTop = UINT32_MAX - 1;  // not reached yet (fixpoint only)
  static constexpr uint32_t kNoPending = UINT32_MAX - 2;
  // location -> origin, then per bound variable its current value's
  // origin (the last binding the code computed on every path to here),
  // then per bound variable its pending value's origin (a binding whose
  // run has not ended yet: kUnknown for a kill) or kNoPending.
  using State = std::vector<uint32_t>;
  size_t current(size_t k) const { return locations_ + k; }
  size_t pending(size_t k) const { return locations_ + bound_var_.size() + k; }
  bool ends_run(NodeId n) const;
  void settle(State& s) const;

  NodeId origin(NodeId n) const;
  unsigned location(Place p) const { return p.is_reg() ? p.reg() : 32 + p.slot(); }
  Place place_at(unsigned loc) const { return loc < 32 ? Place::reg(loc) : Place::slot(loc - 32); }
  bool writes_everything(NodeId n) const;
  void find_phi_origins();
  void find_bindings();
  void transfer(NodeId n, State& s) const;
  void bind_at(NodeId pos, State& s) const;
  template <typename F>
  void each_write(NodeId n, F f) const;
  void solve();

  const Function& fn_;
  std::vector<size_t> bound_var_;          // var index per bound entry
  std::vector<Piece> pieces_;              // per bound entry
  std::vector<uint32_t> entry_current_;    // per bound variable: its value at entry, or kUnknown
  // position node -> (bound variable, its new value's origin or kUnknown),
  // in binding order
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> bound_at_;
  std::vector<NodeId> phi_origin_;         // per node (phis only): origin, kUnknown or kTop
  std::vector<std::vector<NodeId>> projs_; // tuple -> its projs
  std::vector<uint32_t> block_of_;         // block node -> block index
  size_t locations_ = 32;
  std::vector<State> in_;                  // per block
  State now_;                              // during the walk
};

}  // namespace pl::x64
