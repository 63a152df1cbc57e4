// tree_index.cpp - TreeIndex: ancestor queries on a forest (the dominator
// tree, the loop tree) by binary lifting, so that global code motion and
// block ordering stay O(n log n) however deep the trees are (Click's
// original walks up the dominator tree one block at a time: O(n * depth)).
//
// up_[k][v] is the 2^k-th ancestor of v; preorder/postorder numbers from one
// iterative walk give is_ancestor in O(1).
#include "son2cfg.h"

namespace pl::son2cfg {

TreeIndex::TreeIndex(const std::vector<uint32_t>& parent, const std::vector<uint32_t>& order) {
  const size_t n = parent.size();
  depth_.assign(n, 0);
  size_t levels = 1;
  while ((size_t{1} << levels) <= n) ++levels;  // path lengths up to n fit in `levels` bits
  up_.assign(levels, std::vector<uint32_t>(n, kNone));
  for (uint32_t v : order) {
    up_[0][v] = parent[v];
    if (parent[v] != kNone) depth_[v] = depth_[parent[v]] + 1;
  }
  for (size_t k = 1; k < levels; ++k)
    for (uint32_t v : order) {
      uint32_t mid = up_[k - 1][v];
      up_[k][v] = mid == kNone ? kNone : up_[k - 1][mid];
    }
  // Children lists (in `order`), then an iterative walk for pre/post numbers.
  std::vector<uint32_t> child_begin(n + 1, 0), children(order.size());
  for (uint32_t v : order)
    if (parent[v] != kNone) ++child_begin[parent[v] + 1];
  for (size_t i = 0; i < n; ++i) child_begin[i + 1] += child_begin[i];
  std::vector<uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
  for (uint32_t v : order)
    if (parent[v] != kNone) children[fill[parent[v]]++] = v;
  pre_.assign(n, kNone);
  post_.assign(n, 0);
  uint32_t clock = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  for (uint32_t root : order) {
    if (parent[root] != kNone) continue;
    stack.emplace_back(root, child_begin[root]);
    pre_[root] = clock++;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < child_begin[v + 1]) {
        uint32_t c = children[next++];
        pre_[c] = clock++;
        stack.emplace_back(c, child_begin[c]);
        continue;
      }
      post_[v] = clock++;
      stack.pop_back();
    }
  }
}

uint32_t TreeIndex::ancestor_at_depth(uint32_t v, uint32_t d) const {
  uint32_t climb = depth_[v] - d;
  for (size_t k = 0; climb != 0; ++k, climb >>= 1)
    if (climb & 1) v = up_[k][v];
  return v;
}

uint32_t TreeIndex::lca(uint32_t a, uint32_t b) const {
  if (a == kNone) return b;
  if (b == kNone) return a;
  if (is_ancestor(a, b)) return a;
  if (is_ancestor(b, a)) return b;
  for (size_t k = up_.size(); k-- > 0;) {
    uint32_t next = up_[k][a];
    if (next != kNone && !is_ancestor(next, b)) a = next;
  }
  return up_[0][a];
}

}  // namespace pl::son2cfg
