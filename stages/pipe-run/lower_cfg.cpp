// lower_cfg.cpp - the cfg, ssa, cfg-x64 and ra-x64 levels: run the blocks as the cfg
// section gives them.
//
// Each cfg block becomes one block of instructions: its nodes in their
// order (the order in the block is the schedule at these levels), minus the
// nodes FunctionBuilder presets (constants, params, ...) and minus the phis,
// then its terminator. At `cfg` the locals are `ssa:load`/`ssa:store` of
// per-activation slot variables (Move instructions on the value array; a
// slot never stored reads as undefined, like `ssa:undefined` at `ssa`).
//
// Edges: successor k of a block is an edge into the successor's block; the
// region's control input it arrives by is the terminator of this block, and
// when both successors of an `if` are the same block the region lists the
// `if` twice: the true edge (successor 0) is its first occurrence, the false
// edge its second. At `ssa` the edge carries the target's phis: phi input i
// belongs to the region's control input i, and the interpreter copies all
// of them in parallel (each phi reads its input before any phi is written).
//
// Invariants needed: those of the level's contract (the verifier checks them
// unless --no-verify; without it, what this file relies on is checked here
// and reported as an error with the node).
#include <algorithm>

#include "run.h"

namespace pl::run {

namespace {

bool is_phi(OpId op) { return op == Op::SsaPhi || op == Op::Phi; }

class CfgLowering {
 public:
  CfgLowering(const Program& program, const Function& fn, uint32_t index) : b_(program, fn, index), fn_(fn) {}

  CompiledFunction run() {
    if (!fn_.cfg || fn_.cfg->blocks.empty()) b_.fail(0, "the function has no cfg section");
    const std::vector<Block>& blocks = fn_.cfg->blocks;
    block_of_.assign(fn_.nodes.size(), kNone);
    for (uint32_t i = 0; i < blocks.size(); ++i) block_of_[blocks[i].node] = i;
    for (uint32_t i = 0; i < blocks.size(); ++i) {
      const ControlList& ctrl = fn_.nodes[blocks[i].node].control;
      for (uint32_t c = 0; c < ctrl.size(); ++c) arrivals_.push_back({ctrl[c], blocks[i].node, c});
    }
    std::sort(arrivals_.begin(), arrivals_.end());
    phis_.resize(blocks.size());
    for (uint32_t i = 0; i < blocks.size(); ++i)
      for (NodeId n : blocks[i].nodes)
        if (is_phi(fn_.nodes[n].op)) phis_[i].push_back(n);
    b_.reserve_blocks(static_cast<uint32_t>(blocks.size()));
    for (uint32_t i = 0; i < blocks.size(); ++i) lower_block(i);
    b_.set_entry(0);
    return b_.take();
  }

 private:
  void lower_block(uint32_t i) {
    const Block& block = fn_.cfg->blocks[i];
    b_.start_block(i, block.node);
    NodeId last = block.nodes.empty() ? block.node : block.nodes.back();
    for (NodeId n : block.nodes) {
      OpId op = fn_.nodes[n].op;
      if (op < kNumOps && op_info(op).has(TERMINATOR)) {
        if (n != last) b_.fail(n, "terminator is not the last node of its block");
        lower_terminator(i, n);
      } else if (!is_phi(op) && !b_.is_preset(n)) {
        b_.emit(n);
      }
    }
    OpId last_op = fn_.nodes[last].op;
    if (last == block.node || last_op >= kNumOps || !op_info(last_op).has(TERMINATOR))
      b_.emit_trap(last, "block " + block_name(i) + " ends without a terminator");
    b_.finish_block(i);
  }

  void lower_terminator(uint32_t i, NodeId n) {
    const Block& block = fn_.cfg->blocks[i];
    switch (fn_.nodes[n].op) {
      case Op::Jump:
        if (block.successors.size() != 1) b_.fail(n, "a jump block needs one successor");
        b_.emit_jump(n, edge(i, n, 0));
        return;
      case Op::If:
      case Op::X64Jcc:
        if (block.successors.size() != 2) b_.fail(n, "a branch block needs two successors");
        b_.emit_branch(n, edge(i, n, 0), edge(i, n, 1));
        return;
      default: b_.emit_return(n); return;
    }
  }

  // The edge for successor k of block i, whose terminator is `term`.
  uint32_t edge(uint32_t i, NodeId term, uint32_t k) {
    const std::vector<NodeId>& succs = fn_.cfg->blocks[i].successors;
    uint32_t target = block_of_[succs[k]];
    uint32_t occurrence = 0;
    for (uint32_t j = 0; j < k; ++j) occurrence += succs[j] == succs[k];
    // The region's control inputs that name the terminator, in order.
    Arrival key{term, succs[k], 0};
    auto it = std::lower_bound(arrivals_.begin(), arrivals_.end(), key);
    for (; it != arrivals_.end() && it->terminator == term && it->region == succs[k]; ++it)
      if (occurrence-- == 0) return b_.add_edge(target, phis_[target], it->index);
    b_.fail(succs[k], "the region does not list " + node_name(term) + " among its control inputs");
  }

  FunctionBuilder b_;
  const Function& fn_;
  std::vector<uint32_t> block_of_;
  std::vector<std::vector<NodeId>> phis_;
  // Every control input of every block node, sorted: where each terminator
  // arrives (an edge lookup is then a binary search, not a scan of a region
  // that may have thousands of predecessors).
  struct Arrival {
    NodeId terminator, region;
    uint32_t index;
    auto operator<=>(const Arrival&) const = default;
  };
  std::vector<Arrival> arrivals_;
};

}  // namespace

CompiledFunction lower_cfg_function(const Program& program, const Function& fn, uint32_t index) {
  return CfgLowering(program, fn, index).run();
}

}  // namespace pl::run
