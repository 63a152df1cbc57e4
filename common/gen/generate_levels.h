// generate_levels.h - the steps the random module generators share
// (generate.cpp for valid modules, generate_runnable.cpp for runnable
// programs). Both build a function at the ssa level over a BlockGraph, with
// its cfg section, then turn it into the level asked for:
//   link_blocks      the cfg's successor lists and each region's control
//                    inputs (the predecessors' terminators, in edge order);
//   demote_phi       cfg level: a phi becomes `ssa:load SLOT`, and each
//                    distinct predecessor stores its input into SLOT just
//                    before its terminator (a predecessor reaching the block
//                    twice stores the input of its first edge, so the
//                    generator must pass equal values on both);
//   to_son_control   son level: ssa:phi/ssa:undefined renamed, each edge out
//                    of an `if` or `x64:jcc` becomes a `proj`, and the cfg
//                    and dominance sections go.
//   float_literal_bits  an f32 or f64 constant's literal bits, half of them
//                    special values (zeros, infinities, NaNs with payloads,
//                    subnormals, extremes), half ordinary.
// `add(op, literals, inputs)` makes a floating node and returns its id: the
// generators give nodes random source locations, so the caller's random
// stream must see the same calls in the same order as before.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <vector>

#include "ir/dominance.h"
#include "ir/ir.h"

namespace pl::gen {

inline void link_blocks(Function& fn, const BlockGraph& graph) {
  Cfg& cfg = *fn.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    Block& block = cfg.blocks[b];
    for (uint32_t s : graph.succs[b]) block.successors.push_back(cfg.blocks[s].node);
    for (uint32_t p : graph.preds[b]) fn.nodes[block.node].control.push_back(cfg.blocks[p].nodes.back());
  }
}

template <class Add>
void demote_phi(Function& fn, const BlockGraph& graph, uint32_t block, NodeId phi, int64_t slot, Add&& add) {
  InputList incoming = fn.nodes[phi].inputs;
  Node& load = fn.nodes[phi];
  load.op = SsaLoad;
  load.control.clear();
  load.inputs.clear();
  load.literals = {Literal::integer(slot)};
  std::vector<uint32_t> stored;
  for (size_t i = 0; i < graph.preds[block].size(); ++i) {
    uint32_t p = graph.preds[block][i];
    if (std::find(stored.begin(), stored.end(), p) != stored.end()) continue;
    stored.push_back(p);
    NodeId store = add(SsaStore, LiteralList{Literal::integer(slot)}, InputList{incoming[i]});
    std::vector<NodeId>& nodes = fn.cfg->blocks[p].nodes;
    nodes.insert(nodes.end() - 1, store);
  }
}

inline void rename_ssa_phis(Function& fn) {
  for (Node& n : fn.nodes) {
    if (n.op == SsaPhi) n.op = Phi;
    if (n.op == SsaUndef) n.op = Undef;
  }
}

template <class Add>
void to_son_control(Function& fn, const BlockGraph& graph, Add&& add) {
  rename_ssa_phis(fn);
  const Cfg& cfg = *fn.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    NodeId term = cfg.blocks[b].nodes.back();
    if (fn.nodes[term].op != If && fn.nodes[term].op != X64Jcc) continue;
    for (uint32_t k = 0; k < 2; ++k) {
      NodeId proj = add(Proj, LiteralList{Literal::integer(k)}, InputList{term});
      Node& region = fn.nodes[cfg.blocks[graph.succs[b][k]].node];
      *std::find(region.control.begin(), region.control.end(), term) = proj;
    }
  }
  fn.cfg.reset();
  fn.dominance.reset();
}

// The number of choices float_literal_bits takes: k below it picks one of
// the special values or, for the upper half, `ordinary`.
inline constexpr uint64_t kFloatConstantChoices = 32;

// The literal bits of an f32 (f32) or f64 constant: the double of the
// value; an f32 NaN keeps its payload in the top 23 bits of the double's
// mantissa (FORMAT.md section 2), so a signalling one stays signalling.
// k < 16: a special value; else `ordinary` (a multiple of 1/8 in [-125,
// 125), exact in both types), so that not every chain of arithmetic ends in
// a NaN or an infinity.
inline uint64_t float_literal_bits(bool f32, uint64_t k, double ordinary) {
  static constexpr uint64_t kF64Bits[] = {
      0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff8000000000000,  // 0 -0 1 -1.5
      0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000,  // inf -inf NaN -NaN
      0x7ff4000000000123, 0xfff0000000000001, 0x0000000000000001, 0x800fffffffffffff,  // payloads, subnormals
      0x7fefffffffffffff, 0x3fb999999999999a, 0x4340000000000001, 0xc1e0000000000000,  // max 0.1 2^53+2 -2^31
  };
  static constexpr uint32_t kF32Bits[] = {
      0x00000000, 0x80000000, 0x3f800000, 0xbfc00000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
      0x7fa00123, 0xff800001, 0x00000001, 0x807fffff, 0x7f7fffff, 0x3dcccccd, 0x4b800001, 0xcf000000,
  };
  static_assert(2 * std::size(kF64Bits) == kFloatConstantChoices && std::size(kF32Bits) == std::size(kF64Bits));
  if (!f32) return k < std::size(kF64Bits) ? kF64Bits[k] : std::bit_cast<uint64_t>(ordinary);
  uint32_t f = k < std::size(kF32Bits) ? kF32Bits[k] : std::bit_cast<uint32_t>(static_cast<float>(ordinary));
  bool nan = (f & 0x7f800000) == 0x7f800000 && (f & 0x007fffff) != 0;
  return nan ? (uint64_t{f >> 31} << 63) | (uint64_t{0x7ff} << 52) | (uint64_t{f & 0x007fffff} << 29)
             : std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(f)));
}

}  // namespace pl::gen
