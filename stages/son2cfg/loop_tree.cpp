// loop_tree.cpp - find_loops: the loop nesting forest of the reachable
// blocks, and each block's loop depth.
//
// Natural loops: a back edge p -> h is one whose target dominates its source;
// h heads a loop whose body is every block that reaches a back-edge source
// without passing h (all of them are dominated by h). Headers are taken in
// decreasing reverse-postorder index, so an inner loop (whose header the
// outer header dominates, and so precedes in RPO) is found before the loop
// around it. Each backward walk from the latches jumps over the loops found
// inside it with a union-find that maps a block to the outermost loop found
// so far that contains it (the method of LLVM's LoopInfo and of Ramalingam's
// loop nesting forests): every block is visited once per loop that directly
// contains it, so the whole is near-linear.
//
// Irreducible cycles (entered at more than one block) are not loops here:
// their blocks keep the depth of the natural loop around them. Loop depth
// only steers where global code motion puts a node among blocks that are
// all legal, so this costs speed at worst, never correctness.
#include "son2cfg.h"

namespace pl::son2cfg {

namespace {

uint32_t find_root(std::vector<uint32_t>& uf, uint32_t v) {
  uint32_t root = v;
  while (uf[root] != root) root = uf[root];
  while (uf[v] != root) {
    uint32_t next = uf[v];
    uf[v] = root;
    v = next;
  }
  return root;
}

}  // namespace

Loops find_loops(const Graph& g, const DomTree& dom, const TreeIndex& domi) {
  const BlockGraph& cfg = g.flow.graph;
  const size_t blocks = cfg.succs.size();
  Loops loops;
  loops.is_header.assign(blocks, 0);
  loops.header.assign(blocks, kNone);
  loops.parent.assign(blocks, kNone);
  loops.depth.assign(blocks, 0);
  std::vector<uint32_t> uf(blocks);
  for (uint32_t b = 0; b < blocks; ++b) uf[b] = b;
  std::vector<uint32_t> work;
  for (size_t i = dom.rpo.size(); i-- > 0;) {
    uint32_t h = dom.rpo[i];
    work.clear();
    for (uint32_t p : cfg.preds[h])
      if (domi.is_ancestor(h, p)) work.push_back(p);
    if (work.empty()) continue;
    loops.is_header[h] = 1;
    loops.header[h] = h;
    while (!work.empty()) {
      uint32_t r = find_root(uf, work.back());
      work.pop_back();
      if (r == h) continue;
      if (loops.is_header[r]) loops.parent[r] = h;  // an inner loop, found before
      else loops.header[r] = h;
      uf[r] = h;
      for (uint32_t p : cfg.preds[r]) work.push_back(p);
    }
  }
  // Depths, outer loops first (RPO puts a header after the headers around it).
  std::vector<uint32_t> loop_depth(blocks, 0);
  for (uint32_t h : dom.rpo)
    if (loops.is_header[h]) loop_depth[h] = loops.parent[h] == kNone ? 1 : loop_depth[loops.parent[h]] + 1;
  for (uint32_t b : dom.rpo)
    if (loops.header[b] != kNone) loops.depth[b] = loop_depth[loops.header[b]];
  return loops;
}

}  // namespace pl::son2cfg
