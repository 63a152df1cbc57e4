// rename.cpp - SSA renaming along the dominator tree (see ssa_build.h).
//
// Algorithm: the renaming pass of Cytron et al. (1991), with one stack of
// reaching definitions per slot. A preorder walk of the dominator tree
// (explicit stack of frames, no recursion: a 1M-block chain is fine) enters
// a block by pushing its phis, then walks its nodes in order: an ssa:load
// takes the top of its slot's stack as its value, an ssa:store pushes its
// (already renamed) value; at the end of the block, every phi of every
// successor gets, at the input that belongs to this edge, the top of its
// slot's stack. Leaving a block pops what it pushed (one log of pushed slots
// for the whole walk, cut back to the frame's mark).
//
// No reaching definition: a load becomes an ssa:undefined in place (it keeps
// its position and source location, so a later "use of undefined" names the
// read) and is pushed as the slot's definition for the blocks it dominates;
// a phi input gets the slot's entry undefined, created on first need and
// placed in the entry block by finish_ssa (it dominates every edge).
//
// Invariants needed: those read_cfg_shape checks, phi_slots from place_phis
// (a slot's phis exactly where renaming must merge it). Kept: every load's
// value and every phi input is a node that dominates the use (a store's
// value dominates the store, the walk only sees definitions on the
// dominator-tree path), so the output's "definitions dominate uses" holds.
// Work: O(nodes + edges x phis per block).
//
// Debug value bindings (FORMAT.md "Debug information"): a store to the slot
// of a C variable (DebugVar::ssa_slot) binds the variable to the stored
// value, and a phi of its slot binds it at the merge; each is the point
// where an assignment stops being a memory operation, so it is where
// LLVM's mem2reg turns a store into a dbg.value. A phi's binding and a
// store's that no definition of the slot dominates (the variable's first
// assignment on some path, usually its initializer) are droppable: if a
// later pass deletes the value (a constant folded into its users), the
// variable is unknown there anyway, so the binding just goes instead of
// making the variable lost.
//
// Each binding's position (DebugBind::pos) is where the assignment is in the
// control flow: the memory state the block's last effect before the store
// made (the value its `ssa:store` of the memory slot stored), else the
// block node (its start); a phi's binding is at its block's start. Later
// stages keep the effects in order and map the position, so the binding
// takes effect there and not where the code computes the value (a
// constant, or a value computed before the assignment).
#include <algorithm>

#include "ssa_build.h"

namespace pl::ssa {

namespace {

class Renamer {
 public:
  Renamer(Function& fn, const CfgShape& shape, const Slots& slots, const std::vector<std::vector<uint32_t>>& phi_slots)
      : fn_(fn), shape_(shape), slots_(slots), phi_slots_(phi_slots), stacks_(slots.numbers.size()),
        var_of_slot_(slot_variables(fn, slots)) {
    block_of_.assign(fn.nodes.size(), kNone);
    for (uint32_t b = 0; b < fn.cfg->blocks.size(); ++b)
      for (NodeId id : fn.cfg->blocks[b].nodes) block_of_[id] = b;
    out_.value_of.assign(fn.nodes.size(), kNone);
    out_.removed.assign(fn.nodes.size(), 0);
    out_.entry_undefined.assign(slots.numbers.size(), kNone);
  }

  Renaming run(const DomTree& tree);

 private:
  void create_phis();
  void enter(uint32_t b);
  void rename_node(NodeId id);
  void fill_successor_phis(uint32_t b);
  void leave(size_t mark);
  void push(uint32_t slot, NodeId value) {
    stacks_[slot].push_back(value);
    log_.push_back(slot);
  }
  NodeId resolve(NodeId id) const { return out_.value_of[id] == kNone ? id : out_.value_of[id]; }
  NodeId entry_undefined(uint32_t slot);

  Function& fn_;
  const CfgShape& shape_;
  const Slots& slots_;
  const std::vector<std::vector<uint32_t>>& phi_slots_;
  std::vector<std::vector<NodeId>> stacks_;  // per slot: reaching definitions
  std::vector<uint32_t> log_;                // slots pushed, in order
  std::vector<uint32_t> var_of_slot_;        // dense slot -> debug variable, or kNone
  std::vector<uint32_t> block_of_;           // NodeId -> its block (placed nodes), else kNone
  uint32_t block_ = 0;                       // the block being renamed
  NodeId pos_ = kNone;                       // the position of an assignment there now
  Renaming out_;
};

void Renamer::create_phis() {
  out_.phis.resize(phi_slots_.size());
  for (uint32_t b = 0; b < phi_slots_.size(); ++b) {
    const NodeId region = fn_.cfg->blocks[b].node;
    const size_t inputs = fn_.nodes[region].control.size();
    for (size_t k = 0; k < phi_slots_[b].size(); ++k) {
      Node phi;
      phi.op = SsaPhi;
      phi.control = {region};
      phi.inputs = InputList(inputs, 0);  // every input is set by fill_successor_phis
      const NodeId id = static_cast<NodeId>(fn_.nodes.size());
      out_.phis[b].push_back(id);
      fn_.nodes.push_back(std::move(phi));
      if (const uint32_t var = var_of_slot_[phi_slots_[b][k]]; var != kNone)
        add_debug_binding(fn_.debug, DebugBind{var, id, region, true});
      out_.value_of.push_back(kNone);
      out_.removed.push_back(0);
    }
  }
}

NodeId Renamer::entry_undefined(uint32_t slot) {
  NodeId& undef = out_.entry_undefined[slot];
  if (undef == kNone) {
    Node n;
    n.op = SsaUndef;
    undef = static_cast<NodeId>(fn_.nodes.size());
    fn_.nodes.push_back(std::move(n));
    out_.value_of.push_back(kNone);
    out_.removed.push_back(0);
  }
  return undef;
}

void Renamer::enter(uint32_t b) {
  block_ = b;
  pos_ = fn_.cfg->blocks[b].node;
  for (size_t k = 0; k < phi_slots_[b].size(); ++k) push(phi_slots_[b][k], out_.phis[b][k]);
  for (NodeId id : fn_.cfg->blocks[b].nodes) rename_node(id);
  fill_successor_phis(b);
}

void Renamer::rename_node(NodeId id) {
  const uint32_t slot = slots_.slot_of[id];
  if (slot == kNone) return;
  Node& n = fn_.nodes[id];
  if (n.op == SsaStore) {
    const NodeId value = resolve(n.inputs[0]);
    // No definition of the slot dominates the store: on some path the
    // variable has no value before it, so a debugger shows none there
    // either, and losing the binding later loses nothing (droppable).
    const bool first = stacks_[slot].empty();
    push(slot, value);
    out_.removed[id] = 1;
    if (var_of_slot_[slot] != kNone) add_debug_binding(fn_.debug, DebugBind{var_of_slot_[slot], value, pos_, first});
    // The memory slot's new state, made by an effect of this block: the
    // next assignments come after that effect.
    if (value < block_of_.size() && block_of_[value] == block_ && makes_memory(fn_, value)) pos_ = value;
  } else if (stacks_[slot].empty()) {
    n.op = SsaUndef;  // a read before any write: stays, as the undefined value
    n.literals.clear();
    push(slot, id);
  } else {
    out_.value_of[id] = stacks_[slot].back();
    out_.removed[id] = 1;
  }
}

void Renamer::fill_successor_phis(uint32_t b) {
  for (auto [s, input] : shape_.out_edges[b]) {
    for (size_t k = 0; k < phi_slots_[s].size(); ++k) {
      const uint32_t slot = phi_slots_[s][k];
      NodeId value = stacks_[slot].empty() ? entry_undefined(slot) : stacks_[slot].back();
      fn_.nodes[out_.phis[s][k]].inputs[input] = value;
    }
  }
}

void Renamer::leave(size_t mark) {
  while (log_.size() > mark) {
    stacks_[log_.back()].pop_back();
    log_.pop_back();
  }
}

Renaming Renamer::run(const DomTree& tree) {
  create_phis();
  const size_t blocks = phi_slots_.size();
  std::vector<std::vector<uint32_t>> children(blocks);
  for (uint32_t b = 1; b < blocks; ++b)
    if (tree.idom[b] != DomTree::kNone) children[tree.idom[b]].push_back(b);

  struct Frame {
    uint32_t block;
    size_t next_child;
    size_t mark;
  };
  std::vector<Frame> stack;
  stack.push_back({0, 0, log_.size()});
  enter(0);
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next_child < children[f.block].size()) {
      uint32_t child = children[f.block][f.next_child++];
      stack.push_back({child, 0, log_.size()});
      enter(child);
      continue;
    }
    leave(f.mark);
    stack.pop_back();
  }
  return std::move(out_);
}

}  // namespace

std::vector<uint32_t> slot_variables(const Function& fn, const Slots& slots) {
  std::vector<uint32_t> var_of(slots.numbers.size(), kNone);
  for (uint32_t v = 0; v < fn.debug.vars.size(); ++v) {
    const int64_t number = fn.debug.vars[v].ssa_slot;
    if (number < 0) continue;
    auto it = std::lower_bound(slots.numbers.begin(), slots.numbers.end(), static_cast<uint64_t>(number));
    if (it != slots.numbers.end() && *it == static_cast<uint64_t>(number)) var_of[it - slots.numbers.begin()] = v;
  }
  return var_of;
}

Renaming rename_slots(Function& fn, const CfgShape& shape, const DomTree& tree, const Slots& slots,
                      const std::vector<std::vector<uint32_t>>& phi_slots) {
  return Renamer(fn, shape, slots, phi_slots).run(tree);
}

}  // namespace pl::ssa
