// liveness.cpp - seed 001, "Block Liveness Analysis": the values live into
// and out of each block, each with the distance (in instructions) to its
// next use. A value used in a block it is not defined in is live into that
// block at its first use's position; a phi's input is live out of the
// predecessor it comes from at distance 0 (the phi itself is defined at the
// top of its block); a value live out of a block it is not defined in is
// live into it at the block's length plus that distance; live out of a
// block means live into a successor, at the least distance over them.
//
// The seed propagates per block summaries until no distance shrinks. Here,
// as in "Computing Liveness Sets for SSA-Form Programs" (Brandner, Boissinot,
// Darte, Dupont de Dinechin, Rastello, INRIA RR-7503, 2011: path exploration,
// one variable at a time, from its uses up to its definition), each value is
// explored on its own; with distances the exploration is Dijkstra's
// shortest paths backwards over the block graph (edges from a block's
// live-in to its predecessors' live-out, length 0; from a live-out to the
// same block's live-in, length of the block, absent in the defining block).
// Per value the state is two arrays over blocks, reset after it, and the
// values come in increasing order, so each block's sets come out sorted
// without any hashing. The result is the seed's least fixpoint: the same
// distances. (Round-robin over hash maps per block was 40% of regalloc-x64 on
// long functions.)
//
// Needs: usage lists (usage.cpp), the block graph.
#include <algorithm>
#include <queue>

#include "regalloc.h"

namespace pl::ra {

namespace {

// Where value `value` is read: live in `block` at `dist` (a use there), or
// live out of it at distance 0 (a phi's input on that edge).
struct Source {
  NodeId value;
  uint32_t block;
  uint32_t dist;
  bool out;
  bool operator<(const Source& o) const {
    return value != o.value ? value < o.value : block != o.block ? block < o.block : out < o.out;
  }
};

std::vector<Source> sources(const Function& fn, const BlockGraph& g, const Usage& usage,
                            const std::vector<uint8_t>& is_value, const std::vector<uint32_t>& def_block) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  std::vector<Source> out;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    for (const auto& [v, pos] : usage.uses[b])
      if (def_block[v] != b) out.push_back({v, b, pos.front(), false});
    for (NodeId id : blocks[b].nodes) {
      const Node& nd = fn.nodes[id];
      if (nd.op != Phi) break;
      if (!is_value[id]) continue;
      for (size_t k = 0; k < nd.inputs.size() && k < g.preds[b].size(); ++k)
        if (is_value[nd.inputs[k]]) out.push_back({nd.inputs[k], g.preds[b][k], 0, true});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Liveness compute_liveness(const Function& fn, const BlockGraph& g, const Usage& usage,
                          const std::vector<uint8_t>& is_value) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  const uint32_t nb = static_cast<uint32_t>(blocks.size());
  Liveness l;
  l.live_in.resize(nb);
  l.live_out.resize(nb);
  std::vector<uint32_t> def_block(fn.nodes.size(), kNone);
  for (uint32_t b = 0; b < nb; ++b)
    for (NodeId d : usage.defs[b]) def_block[d] = b;
  const std::vector<Source> from = sources(fn, g, usage, is_value, def_block);
  // The exploration of one value: distances live in and live out per block
  // (kFar: not live), the blocks given one, and the queue of live-in
  // distances still to pass on to predecessors.
  std::vector<uint32_t> din(nb, kFar), dout(nb, kFar), touched;
  using Item = std::pair<uint32_t, uint32_t>;  // distance, block
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  NodeId v = 0;
  auto touch = [&](uint32_t b) {
    if (din[b] == kFar && dout[b] == kFar) touched.push_back(b);
  };
  auto reach_in = [&](uint32_t b, uint32_t d) {
    if (d >= din[b]) return;
    touch(b);
    din[b] = d;
    queue.push({d, b});
  };
  auto reach_out = [&](uint32_t b, uint32_t d) {
    if (d >= dout[b]) return;
    touch(b);
    dout[b] = d;
    if (def_block[v] != b)
      reach_in(b, static_cast<uint32_t>(std::min<uint64_t>(uint64_t{blocks[b].nodes.size()} + d, kFar - 1)));
  };
  for (size_t i = 0; i < from.size();) {
    v = from[i].value;
    for (; i < from.size() && from[i].value == v; ++i) {
      if (from[i].out)
        reach_out(from[i].block, 0);
      else
        reach_in(from[i].block, from[i].dist);
    }
    while (!queue.empty()) {
      auto [d, b] = queue.top();
      queue.pop();
      if (d != din[b]) continue;  // lowered since: a later entry passes it on
      for (uint32_t p : g.preds[b]) reach_out(p, d);
    }
    for (uint32_t b : touched) {
      if (din[b] != kFar) l.live_in[b].append(v, din[b]);
      if (dout[b] != kFar) l.live_out[b].append(v, dout[b]);
      din[b] = dout[b] = kFar;
    }
    touched.clear();
  }
  return l;
}

}  // namespace pl::ra
