// son_cfg.cpp - blocks, edges and dominators of a son function (son_cfg.h).
#include "son_cfg.h"

#include <algorithm>

namespace pl::sonopt {

bool is_control_point(const Graph& g, NodeId n) {
  OpId op = g.op(n);
  if (op == Op::Start || op == Op::Region) return true;
  return op == Op::Proj && g.node(n).inputs.size() == 1 && g.op(g.node(n).inputs[0]) == Op::If;
}

uint32_t SonCfg::block_of_node(const Graph& g, NodeId n) const {
  // Nodes added after the SonCfg was built are no control points.
  if (n < block_of.size() && block_of[n] != DomTree::kNone) return block_of[n];
  if (g.node(n).control.empty()) return DomTree::kNone;
  return block_of[g.node(n).control[0]];
}

SonCfg build_son_cfg(const Graph& g) {
  SonCfg cfg;
  cfg.block_of.assign(g.size(), DomTree::kNone);
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::Start) {
      cfg.block_of[n] = 0;
      cfg.blocks.push_back(n);
      break;  // another start (the contract has one) would be found below
    }
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && is_control_point(g, n) && cfg.block_of[n] == DomTree::kNone) {
      cfg.block_of[n] = static_cast<uint32_t>(cfg.blocks.size());
      cfg.blocks.push_back(n);
    }
  size_t count = cfg.blocks.size();
  cfg.terminator.assign(count, kNone);
  cfg.graph.succs.assign(count, {});
  cfg.graph.preds.assign(count, {});
  for (uint32_t b = 0; b < count; ++b)
    for (NodeId u : g.users(cfg.blocks[b]))
      if (g.has(u, TERMINATOR) && g.node(u).control[0] == cfg.blocks[b]) cfg.terminator[b] = std::min(cfg.terminator[b], u);
  std::vector<NodeId> regions;  // scratch for region_users
  auto region_users = [&](NodeId edge, uint32_t from) {
    regions.clear();
    for (NodeId u : g.users(edge))
      if (g.op(u) == Op::Region) regions.push_back(u);
    std::sort(regions.begin(), regions.end());
    regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
    for (NodeId r : regions)
      for (NodeId c : g.node(r).control)
        if (c == edge) cfg.graph.succs[from].push_back(cfg.block_of[r]);
  };
  for (uint32_t b = 0; b < count; ++b) {
    NodeId point = cfg.blocks[b];
    if (g.op(point) == Op::Proj) region_users(point, b);
    NodeId t = cfg.terminator[b];
    if (t == kNone) continue;
    if (g.op(t) == Op::Jump) {
      region_users(t, b);
    } else if (g.op(t) == Op::If) {
      cfg.graph.succs[b].reserve(2);
      for (int64_t k = 0; k < 2; ++k)
        for (NodeId u : g.users(t))
          if (g.op(u) == Op::Proj && g.node(u).literals[0].as_int() == k) {
            cfg.graph.succs[b].push_back(cfg.block_of[u]);
            break;
          }
    }
  }
  std::vector<uint32_t> pred_count(count, 0);  // each list allocated once
  for (uint32_t b = 0; b < count; ++b)
    for (uint32_t s : cfg.graph.succs[b]) ++pred_count[s];
  for (uint32_t b = 0; b < count; ++b) cfg.graph.preds[b].reserve(pred_count[b]);
  for (uint32_t b = 0; b < count; ++b)
    for (uint32_t s : cfg.graph.succs[b]) cfg.graph.preds[s].push_back(b);
  if (count > 0) cfg.dom = compute_dom_tree(cfg.graph, /*frontiers=*/false);
  return cfg;
}

}  // namespace pl::sonopt
