// dominance.cpp - Cooper-Harvey-Kennedy dominators and frontiers (see
// dominance.h). Iterative throughout: no recursion on deep CFGs.
#include "ir/dominance.h"

#include <algorithm>

namespace pl {

namespace {

std::vector<uint32_t> postorder(const BlockGraph& g) {
  std::vector<uint32_t> order;
  if (g.succs.empty()) return order;
  std::vector<char> seen(g.succs.size(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  seen[0] = 1;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < g.succs[b].size()) {
      uint32_t s = g.succs[b][next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.emplace_back(s, 0);
      }
      continue;
    }
    order.push_back(b);
    stack.pop_back();
  }
  return order;
}

uint32_t intersect(const DomTree& t, uint32_t a, uint32_t b) {
  while (a != b) {
    while (t.rpo_index[a] > t.rpo_index[b]) a = t.idom[a];
    while (t.rpo_index[b] > t.rpo_index[a]) b = t.idom[b];
  }
  return a;
}

}  // namespace

bool DomTree::dominates(uint32_t a, uint32_t b) const {
  while (b != kNone && rpo_index[b] >= rpo_index[a]) {
    if (a == b) return true;
    b = idom[b];
  }
  return false;
}

DomTree compute_dom_tree(const BlockGraph& g, bool frontiers) {
  const size_t n = g.succs.size();
  DomTree t;
  t.idom.assign(n, DomTree::kNone);
  t.rpo_index.assign(n, DomTree::kNone);
  if (frontiers) t.frontier.resize(n);
  t.rpo = postorder(g);
  std::reverse(t.rpo.begin(), t.rpo.end());
  for (uint32_t i = 0; i < t.rpo.size(); ++i) t.rpo_index[t.rpo[i]] = i;
  if (t.rpo.empty()) return t;
  t.idom[0] = 0;  // temporarily its own dominator, as in the paper
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < t.rpo.size(); ++i) {
      uint32_t b = t.rpo[i];
      uint32_t new_idom = DomTree::kNone;
      for (uint32_t p : g.preds[b]) {
        if (t.idom[p] == DomTree::kNone) continue;  // unprocessed or unreachable
        new_idom = new_idom == DomTree::kNone ? p : intersect(t, p, new_idom);
      }
      if (new_idom != t.idom[b]) {
        t.idom[b] = new_idom;
        changed = true;
      }
    }
  }
  if (frontiers) {
    for (uint32_t b : t.rpo) {
      if (g.preds[b].size() < 2) continue;
      for (uint32_t p : g.preds[b]) {
        if (!t.reachable(p)) continue;
        for (uint32_t runner = p; runner != t.idom[b]; runner = t.idom[runner]) {
          auto& f = t.frontier[runner];
          if (std::find(f.begin(), f.end(), b) == f.end()) f.push_back(b);
          if (runner == 0) break;
        }
      }
    }
    for (auto& f : t.frontier) std::sort(f.begin(), f.end());
  }
  t.idom[0] = DomTree::kNone;
  return t;
}

Dominance dominance_section(const Function& fn, const DomTree& tree) {
  const Cfg& cfg = *fn.cfg;
  Dominance dom;
  dom.blocks.resize(cfg.blocks.size());
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    DomBlock& d = dom.blocks[b];
    d.node = cfg.blocks[b].node;
    if (tree.idom[b] != DomTree::kNone) d.parent = cfg.blocks[tree.idom[b]].node;
    for (uint32_t f : tree.frontier[b]) d.frontier.push_back(cfg.blocks[f].node);
  }
  return dom;
}

}  // namespace pl
