// regalloc.h - the steps of regalloc-x64 (cfg-x64 -> ra-x64), one file per
// section of seed 001 that they follow, and the facts they hand each other.
// regalloc-x64.cpp's header comment gives the pipeline and its departures
// from the seed; each step's file says what it computes and what it needs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/dominance.h"
#include "ir/ir.h"
#include "x64/x64.h"

namespace pl::ra {

constexpr uint32_t kNone = ~0u;
constexpr uint32_t kFar = ~0u;  // next-use distance of a value never used again

// Blocks by index; preds[b][k] is the block whose terminator is control
// input k of b's region (so phi input k comes from preds[b][k]).
BlockGraph block_graph(const Function& fn);
// Node id -> index of the block holding it (kNone if none).
std::vector<uint32_t> block_index(const Function& fn);

// Nodes that produce a value living in a register or slot (the others:
// memory, flags, control, tuples, address nodes folded into addresses).
std::vector<uint8_t> value_nodes(const Function& fn);
bool is_address_node(OpId op);

// unit.cpp: phis of single-predecessor blocks replaced by their input.
void fold_single_phis(Function& fn);

// critical_edges.cpp (seed: "Critical Edge Removal").
void split_critical_edges(Function& fn);
// address_values.cpp: an address node used other than as an address base
// gets an x64:lea before that use.
void materialize_addresses(Function& fn);

// usage.cpp (seed: "Usage Table Calculation"): per block, each value's use
// positions (instruction index in the block's node list).
struct Usage {
  std::vector<std::unordered_map<NodeId, std::vector<uint32_t>>> uses;  // per block
  std::vector<std::vector<NodeId>> defs;                                // per block, values defined
};
Usage compute_usage(const Function& fn, const std::vector<uint8_t>& is_value);

// liveness.cpp (seed: "Block Liveness Analysis"): live-in and live-out values
// of each block with the distance (in instructions) to their next use.
// One block's live values, each with its distance, sorted by value.
class LiveSet {
 public:
  using Entry = std::pair<NodeId, uint32_t>;
  std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Entry>::const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  // v's distance, or nullptr when v is not live here.
  const uint32_t* find(NodeId v) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), v,
                               [](const Entry& e, NodeId x) { return e.first < x; });
    return it != entries_.end() && it->first == v ? &it->second : nullptr;
  }
  bool count(NodeId v) const { return find(v) != nullptr; }
  // Appends v, which must be above every value already here.
  void append(NodeId v, uint32_t dist) { entries_.emplace_back(v, dist); }

 private:
  std::vector<Entry> entries_;
};
struct Liveness {
  std::vector<LiveSet> live_in, live_out;
};
Liveness compute_liveness(const Function& fn, const BlockGraph& g, const Usage& usage,
                          const std::vector<uint8_t>& is_value);

// Next use of `v` at or after position `pos` of block `b`, as a distance
// (kFar: never).
uint32_t next_use(const Function& fn, const Usage& u, const Liveness& l, uint32_t b, NodeId v, uint32_t pos);

// releases.cpp (seed: "Release Table Calculation"): per block and position,
// the values whose last use is there (released after the instruction).
using Releases = std::vector<std::vector<std::vector<NodeId>>>;  // [block][position]
Releases compute_releases(const Function& fn, const Usage& u, const Liveness& l);

// save_emission.cpp (seed: "Save Emission", with the System V departure):
// which values live across a call (they prefer callee-saved registers), and
// the callee-saved registers' save and restore after assignment.
// Calls in a block marked in `cold` (cold_call_blocks) do not count: a
// value live only across those stays out of the callee-saved registers
// and is saved around the call on that rare path alone.
std::vector<uint8_t> values_across_calls(const Function& fn, const Usage& u, const Liveness& l,
                                         const std::vector<uint8_t>& is_value, const std::vector<uint8_t>& cold);
// Whether each block makes a call (x64:call, x64:callind).
std::vector<uint8_t> calling_blocks(const Function& fn);
// Whether each block makes a cold call (x64::ColdCallees: of a cold or
// noreturn extern, such as sqrt's errno call): a block guessed rare.
std::vector<uint8_t> cold_call_blocks(const Function& fn, const x64::ColdCallees& cold);
void emit_callee_saves(Function& fn, uint32_t& next_slot);

// edge_moves.cpp: the parallel move at the end of a merge's predecessor.
// The sink makes the nodes (and counts them).
class MoveSink {
 public:
  virtual ~MoveSink() = default;
  // A copy (x64:mov, x64:spill, x64:reload) of `from` into `to`.
  virtual NodeId copy(Op op, NodeId from, Place to) = 0;
  // x64:xchg of two register nodes: {proj holding a's value in b's
  // register, proj holding b's value in a's register}.
  virtual std::pair<NodeId, NodeId> xchg(NodeId a, NodeId b) = 0;
  // A slot no value uses yet.
  virtual Place fresh_slot() = 0;
};
// Moves from[j]'s value (in from[j]'s place) into to[j], all at once;
// returns, per move, the node holding the value in to[j] afterwards.
// `classes`: each move's register class (a scratch register for it is of
// that class; xmm values are never exchanged: a cycle through xmm registers
// is broken through a free xmm register or a fresh slot).
// `frame_pointer`: rbp is the frame pointer, never a scratch register.
std::vector<NodeId> edge_moves(const Function& fn, const std::vector<NodeId>& from, const std::vector<Place>& to,
                               const std::vector<x64::RegClass>& classes, MoveSink& sink, bool frame_pointer);

// Counts for --stats.
struct Stats {
  uint64_t spills = 0, reloads = 0, moves = 0, exchanges = 0;
};

// assignment.cpp (seed: "Class Allocation", "Assumption Propagation",
// "Register Assignment" for a block and for a program unit): rewrites `fn`
// into ra-x64 form with virtual slots (one per spilled value); returns the
// number of slots used.
// `frame_pointer`: rbp takes no value (-fno-omit-frame-pointer), as in a
// function with a dynamic stack.
// `cold`: the module's cold callees (cold_call_blocks).
uint32_t assign_registers(Function& fn, Stats& stats, bool frame_pointer = false,
                          const x64::ColdCallees& cold = x64::ColdCallees());

// stack_map.cpp (seed: "Stack Interval Calculation", "Stack Map
// Calculation"): renumbers slots so that slots whose contents are never live
// at once share a number.
void share_slots(Function& fn);

// collapse.cpp (seed: "Block Collapsing"): removes the phis the assignment
// made that merge one node, the safe blocks that stayed empty, renumbers
// the nodes canonically and recomputes dominance.
// Safe blocks are those at index `first_safe` and later.
void collapse_blocks(Function& fn, size_t first_safe);

}  // namespace pl::ra
