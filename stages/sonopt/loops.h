// loops.h - the natural loops of a sea-of-nodes function, for sonopt's loop
// passes (licm, iv-reduce, unroll, unroll-partial).
//
// Over the blocks of son_cfg.h: an edge b -> h is a back edge when h
// dominates b; the loop of header h is h plus every block that reaches a
// back-edge source of h without passing h (the union over h's back edges:
// one loop per header). A loop is "simple" when its header is a `region`
// with exactly one control input from outside the loop (the entry edge);
// the block that edge leaves is the preheader, where code hoisted out of
// the loop goes (a pinned node hung off the preheader's control point runs
// once, before the loop, whenever the loop is entered). Loops come inner
// first (fewer blocks first, then by header). Irreducible cycles (no header
// dominating the cycle) are no loops here and are left alone.
// Like SonCfg, a LoopForest is valid while the control nodes stay as they
// are; moving a pinned node to another block does not invalidate it.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "son_cfg.h"

namespace pl::sonopt {

struct Loop {
  uint32_t header = 0;              // block index
  std::vector<uint32_t> blocks;     // sorted, header included
  std::vector<uint32_t> latches;    // blocks with a back edge to the header, sorted
  // Simple loops only (entry != kNone): the header region's control input
  // from outside, its index there, and the preheader's block and node.
  NodeId entry = kNone;
  size_t entry_index = 0;
  uint32_t preheader = 0;
  NodeId preheader_node = kNone;

  bool contains(uint32_t block) const { return std::binary_search(blocks.begin(), blocks.end(), block); }
  bool simple() const { return entry != kNone; }
};

struct LoopForest {
  std::vector<Loop> loops;  // inner first
  // The block a region's control input i comes from.
  static uint32_t edge_source(const Graph& g, const SonCfg& cfg, NodeId edge);
};

LoopForest find_loops(const Graph& g, const SonCfg& cfg);

// A cheap test before building anything (compile time): whether some phi
// has an input computed directly from that phi - a counter `i + 1`, a
// memory chain `store(phi, ...)`. Every loop the loop passes change has one
// (their counters, trip counts and stores are such phis), so a function
// without one is skipped.
bool has_loop_carried_phi(const Function& fn);

// Whether value node n is computed before `loop`: n is a node with no
// control input whose inputs are all invariant, or a pinned node whose
// block is outside the loop and dominates its header (so n is available
// in the preheader). `memo` caches answers for one loop; clear() it (cost:
// the entries set) before asking about another loop or after an edit.
struct InvariantMemo {
  std::vector<uint8_t> state;  // by node id: 0 unknown, 1 invariant, 2 variant
  std::vector<NodeId> touched;
  void clear() {
    for (NodeId n : touched) state[n] = 0;
    touched.clear();
  }
};
bool loop_invariant(const Graph& g, const SonCfg& cfg, const Loop& loop, NodeId n, InvariantMemo& memo);

// The phis of the loop's header region (live, sorted).
std::vector<NodeId> header_phis(const Graph& g, const SonCfg& cfg, const Loop& loop);

// The condition under which control stays in a simple loop after its
// header: the header ends with an `if` whose one proj leads into the loop
// and the other out of it. `stays_on_true` says which proj stays.
struct HeaderTest {
  NodeId branch = kNone;
  NodeId cond = kNone;
  bool stays_on_true = true;
};
std::optional<HeaderTest> header_test(const Graph& g, const SonCfg& cfg, const Loop& loop);

// The entry value of each header phi substituted for the phi, n is
// evaluated (common/ir/eval.h, as trip_count evaluates: offsets from one
// loop-invariant base cancel); nullopt when it is not a constant that way.
std::optional<uint64_t> eval_on_entry(const Graph& g, const SonCfg& cfg, const Loop& loop, NodeId n);

// The body of a simple loop made of its header (phis and the exit test
// only) and a straight chain of blocks from the side of the test that
// stays to the one latch, each ending with a `jump` into a region of one
// control input (the next block) or, last, into the header: the chain's
// blocks in order, or empty when the loop is no such.
// With `through_projs` (loop-idiom, which may see the graph before
// simplify-cfg has merged anything) a block may also be a proj of the
// header's `if` that a region of one control input lists directly, as
// ssa2son leaves each branch: it counts as a chain block with no nodes.
std::vector<uint32_t> body_chain(const Graph& g, const SonCfg& cfg, const Loop& loop, bool through_projs = false);

// loop_idiom.cpp: whether loop-idiom will turn `loop` into a memset call
// (`memset_ok`: memset_idiom_possible). iv-reduce, unroll and
// unroll-partial leave such a loop alone: loop-idiom is ordered before them,
// but sonopt's early rounds run the function passes on each function as it
// arrives, before any module pass, and their rewrites (the counter made a
// pointer, copies of the body) would hide the idiom from it.
bool memset_idiom_loop(const Graph& g, const SonCfg& cfg, const Loop& loop, bool memset_ok);
// Whether memset may be called, as far as `fn` and the header tell (a
// function pass sees no other function: a module that defines memset is
// seen by loop-idiom alone, which then leaves the loop as it is).
bool memset_idiom_possible(const Function& fn, const ModuleHeader& header);

// How many times the body of a loop with exit test `test` runs, found by
// evaluation: the header phis start from their entry inputs and step
// through their back inputs, and the test is evaluated each time (pure
// nodes and constants, common/ir/eval.h), at most `max_trips` times. Values
// are affine over one loop-invariant base: a non-constant invariant node b
// is "b + 0", add and sub keep one base, and eq/ne of two values of the
// same base compare their offsets; so a pointer test `p != b + 640` over
// `p = b` stepping by 4 counts 160 trips whatever b is. nullopt when the
// test is not decided that way within max_trips.
std::optional<int> trip_count(const Graph& g, const SonCfg& cfg, const Loop& loop, const HeaderTest& test,
                              int max_trips);

// A loop's own nodes in dependency order: the pinned nodes of the body
// chain's blocks and every floating node that reads a header phi or one of
// them, transitively (the header phis themselves excluded; the phis of the
// body's one-input regions included). Empty when there are more than
// max_nodes, or when a block lists a region directly (unless
// `through_projs`, for a chain body_chain found so: that region is the
// next chain block).
std::vector<NodeId> loop_nodes(const Graph& g, const SonCfg& cfg, const Loop& loop,
                               const std::vector<uint32_t>& chain, size_t max_nodes, bool through_projs = false);

// One copy of a loop's body, for unroll and unroll-partial: `nodes` (in
// loop_nodes' order) copied with each header phi read as entering[phi] (a
// one-input phi of the body is a copy of its input); pinned copies hang
// off `control`. Returns each header phi's value after the copy: its input
// `back` as the copy computes it.
std::map<NodeId, NodeId> copy_body(Graph& g, const std::vector<NodeId>& nodes, const std::vector<NodeId>& phis,
                                   size_t back, const std::map<NodeId, NodeId>& entering, NodeId control);

}  // namespace pl::sonopt
