// ssa_build.h - the passes of cfg2ssa, in the order build_ssa() runs them:
//
//   read_cfg_shape   block graph from the region control lists  (cfg_shape.cpp)
//   compute_dom_tree dominators and frontiers (common/ir/dominance.h)
//   collect_slots    slot numbers, stores and upward-exposed loads (slots.cpp)
//   check_slot_kinds one kind (value or memory) per slot      (slot_kinds.cpp)
//   place_phis       pruned phi placement: per-slot liveness + iterated
//                    dominance frontier                          (place_phis.cpp)
//   rename_slots     renaming along the dominator tree           (rename.cpp)
//   finish_ssa       rewire uses, drop dead phis, compact        (finish.cpp)
//
// Blocks are named by their index in cfg.blocks throughout; slots by a dense
// index (Slots::numbers maps it back to the `ssa:load`/`ssa:store` literal).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ir/dominance.h"
#include "ir/ir.h"

namespace pl::ssa {

inline constexpr uint32_t kNone = ~0u;

// The block graph as the region control lists give it. preds[b][i] is the
// block whose terminator is control input i of b's region (so it is also
// the block that feeds phi input i); succs is its transpose.
struct CfgShape {
  BlockGraph graph;
  // out_edges[p]: every (s, i) where p's terminator is control input i of
  // block s's region, in block order of s.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out_edges;
  std::vector<uint32_t> block_of;  // NodeId -> block holding it (block node or placed), else kNone
};

// Builds the shape and checks what the later passes rely on (every region
// control input is a block's terminator, the entry block has no
// predecessors, every block is reachable, every node is placed). The
// verifier checks all of this at the cfg level; the checks here keep
// --no-verify input from crashing the stage. Throws FormatError.
CfgShape read_cfg_shape(const Function& fn);

struct Slots {
  std::vector<uint64_t> numbers;            // dense slot -> slot literal, ascending
  std::vector<uint32_t> slot_of;            // NodeId -> dense slot of an ssa:load/ssa:store, else kNone
  std::vector<std::vector<uint32_t>> defs;  // per slot: blocks that store it, ascending, once each
  std::vector<std::vector<uint32_t>> uses;  // per slot: blocks that load it before any store
                                            // in the block (upward-exposed), ascending, once each
};

Slots collect_slots(const Function& fn);

// The one-kind-per-slot rule: a slot's stores all store values or all
// memory, and its loads are used where that kind fits. Throws FormatError.
void check_slot_kinds(const Function& fn, const Slots& slots);

// phi_slots[b]: the slots that get a phi at block b, ascending.
std::vector<std::vector<uint32_t>> place_phis(const Slots& slots, const BlockGraph& graph, const DomTree& tree);

struct Renaming {
  // phis[b][k] is the ssa:phi node of slot phi_slots[b][k]; appended to fn.
  std::vector<std::vector<NodeId>> phis;
  // value_of[id]: for an ssa:load that was replaced, the node that replaces
  // it (never a load); kNone otherwise.
  std::vector<NodeId> value_of;
  // The ssa:undefined nodes created for phi inputs with no reaching
  // definition, one per slot at most, to be placed in the entry block.
  std::vector<NodeId> entry_undefined;
  std::vector<char> removed;  // NodeId -> the node (a load or store) disappears
};

// Debug value bindings: the variable (index into fn.debug.vars) each dense
// slot holds (DebugVar::ssa_slot), or kNone.
std::vector<uint32_t> slot_variables(const Function& fn, const Slots& slots);

// Renames along the dominator tree: creates the phis, decides every load's
// value and every phi's inputs. A load with no reaching definition becomes
// an ssa:undefined in place.
// Each store to a variable's slot and each phi of one becomes a binding
// of the variable (fn.debug.binds) to the stored value or the phi.
Renaming rename_slots(Function& fn, const CfgShape& shape, const DomTree& tree, const Slots& slots,
                      const std::vector<std::vector<uint32_t>>& phi_slots);

// Rewires every use of a removed load, drops dead phis and unused entry
// undefineds, rebuilds the block lists (phis first), renumbers the nodes
// canonically and writes the dominance section. A binding to a phi that
// goes is dropped; the variables' slot numbers are cleared. Throws FormatError if a
// surviving node uses an ssa:store (input that does not verify: loads all
// have a value once every block is reachable, stores never do).
void finish_ssa(Function& fn, const DomTree& tree, Renaming& renaming);

// The whole stage on one function (cfg level in, ssa level out).
void build_ssa(Function& fn);

}  // namespace pl::ssa
