// block_order.cpp - order_blocks: the order blocks are listed (and, in issue
// 5, emitted) in. Seed 002: "Blocks are ordered to optimize amount of
// jumps".
//
// A reverse postorder in which every loop's blocks are contiguous, built
// bottom-up over the loop tree (find_loops): each loop is laid out on its
// own, as a reverse postorder of its body in which every inner loop counts
// as one item, starting from its header; the function is laid out the same
// way from block 0, and the layouts nest. An edge is seen at the level of
// the innermost loop holding both its ends, from the item holding its
// source to the item holding its target; edges back to the level's header
// are back edges and are not followed, edges leaving the level belong to an
// outer level. Where a block continues is the successor the walk visits
// last (it comes right after the block in reverse postorder), so:
//  - an if's true target is visited last, so it falls through when nothing
//    else decides (the layout of the source, true branch first);
//  - an exit of a loop is never the successor inside the loop's layout: the
//    edge staying in the loop (likely) falls through, the exit (unlikely)
//    jumps; a back edge is the loop's taken branch;
//  - a loop item continues with the target of the exit from its last block,
//    so a loop's exit falls through where it can.
// Rotation: a loop whose header ends with an if that either stays in the
// loop or leaves it (a `while` or `for`) is laid out from its body and puts
// the header last: the latch falls into the header, whose conditional jump
// goes back to the body or falls out of the loop. An iteration then costs
// one jump (the conditional one) instead of a jump back plus a conditional
// exit; entering the loop costs a jump to the header, once.
//
// Branch probabilities (FORMAT.md section 7, "Branch probabilities"): a
// branch whose true side has the smaller probability visits it first, so
// its false side falls through; and the blocks that only an unlikely edge
// (at most 10%: __builtin_expect's other side, a noreturn or cold arm;
// not a loop's exit, which runs once per entry of the loop) leads to, its
// target when that is entered by the edge alone and every block it
// dominates, leave the layout and go, in their order, after all the
// others: the hot path is contiguous and the unlikely code out of line, as
// gcc -O2's block reordering places it (without a .text.unlikely section). A loop the cold region holds moves whole; a loop that holds a
// cold region is no longer contiguous, which only costs the cold path.
// Block 0 (start) comes first: nothing jumps to it, so it is never in a loop.
// Cost: O(E log E) (one LCA and two ancestor queries per edge on the loop
// tree, one sort of each block's successors).
#include <algorithm>
#include <optional>
#include <tuple>

#include "ir/probability.h"
#include "son2cfg.h"

namespace pl::son2cfg {

namespace {

struct Arc {
  uint32_t to;     // item key at the arc's level
  uint32_t from;   // source block
  uint32_t index;  // successor index in the source block (0: an if's true target)
};

class Layout {
 public:
  Layout(const Graph& g, const DomTree& dom, const Loops& loops)
      : g_(g), loops_(loops), blocks_(static_cast<uint32_t>(g.flow.head.size())), root_(blocks_),
        tree_(loop_parents(), tree_order(dom)) {}

  std::vector<uint32_t> run(const DomTree& dom);

 private:
  // Item keys: block or inner loop (by its header) v -> v; a loop's own
  // header block at that loop's level -> header_key(h).
  uint32_t header_key(uint32_t h) const { return blocks_ + 1 + h; }

  std::vector<uint32_t> loop_parents() const;
  std::vector<uint32_t> tree_order(const DomTree& dom) const;
  void collect_arcs();
  void lay_out(uint32_t level);
  bool rotates(uint32_t header) const;
  std::optional<uint32_t> probability(uint32_t b) const;
  int64_t rank(const Arc& a) const;
  std::vector<uint32_t> move_cold_blocks(std::vector<uint32_t> order, const DomTree& dom) const;
  uint32_t last_block_of(uint32_t key) const;

  const Graph& g_;
  const Loops& loops_;
  const uint32_t blocks_;
  const uint32_t root_;  // the function, as the loop tree's root
  TreeIndex tree_;
  std::vector<std::vector<Arc>> arcs_;       // by source item key
  std::vector<std::vector<uint32_t>> seq_;   // level -> its items in layout order
  std::vector<uint32_t> last_block_;         // level -> the last block of its layout
  std::vector<char> visited_;
};

// The loop tree over blocks: a block's parent is its innermost loop's
// header (a header's: the enclosing loop's), or the root.
std::vector<uint32_t> Layout::loop_parents() const {
  std::vector<uint32_t> parent(blocks_ + 1, kNone);
  for (uint32_t b = 0; b < blocks_; ++b) {
    uint32_t up = loops_.is_header[b] ? loops_.parent[b] : loops_.header[b];
    parent[b] = up == kNone ? root_ : up;
  }
  return parent;
}

std::vector<uint32_t> Layout::tree_order(const DomTree& dom) const {
  std::vector<uint32_t> order{root_};
  order.insert(order.end(), dom.rpo.begin(), dom.rpo.end());
  return order;
}

void Layout::collect_arcs() {
  arcs_.assign(2 * blocks_ + 1, {});
  const BlockGraph& cfg = g_.flow.graph;
  for (uint32_t b = 0; b < blocks_; ++b)
    for (uint32_t k = 0; k < cfg.succs[b].size(); ++k) {
      uint32_t s = cfg.succs[b][k];
      uint32_t level = tree_.lca(b, s);
      if (level == s && loops_.is_header[s]) continue;  // a back edge
      uint32_t below = tree_.depth(level) + 1;
      uint32_t from = level == b ? header_key(b) : tree_.ancestor_at_depth(b, below);
      arcs_[from].push_back({tree_.ancestor_at_depth(s, below), b, k});
    }
}

uint32_t Layout::last_block_of(uint32_t key) const {
  if (key > blocks_) return key - blocks_ - 1;
  return loops_.is_header[key] ? last_block_[key] : key;
}

bool Layout::rotates(uint32_t header) const {
  const std::vector<uint32_t>& succs = g_.flow.graph.succs[header];
  if (succs.size() != 2) return false;
  bool in0 = tree_.is_ancestor(header, succs[0]), in1 = tree_.is_ancestor(header, succs[1]);
  return in0 != in1;
}

// The probability that block b's branch goes to its successor 0.
std::optional<uint32_t> Layout::probability(uint32_t b) const {
  NodeId t = g_.flow.terminator[b];
  if (t == kNone || g_.flow.graph.succs[b].size() != 2) return std::nullopt;
  return branch_probability(g_.fn.nodes[t]);
}

// The order a block's arcs are visited in: the highest rank last (it falls
// through): successor 0, the true side, unless the branch says that side
// is the less likely one.
int64_t Layout::rank(const Arc& a) const {
  std::optional<uint32_t> p = probability(a.from);
  uint32_t first = p && *p < kProbOne / 2 ? 1 : 0;
  return a.index == first ? 0 : -1 - static_cast<int64_t>(a.index);
}

// The unlikely regions (above) moved after the rest, both in their order.
std::vector<uint32_t> Layout::move_cold_blocks(std::vector<uint32_t> order, const DomTree& dom) const {
  std::vector<char> cold(blocks_, 0);
  bool any = false;
  for (uint32_t b : dom.rpo) {  // a block's dominator before it
    uint32_t i = dom.idom[b];
    if (i == DomTree::kNone) continue;
    if (cold[i]) {
      cold[b] = 1;
      continue;
    }
    const std::vector<uint32_t>& preds = g_.flow.graph.preds[b];
    std::optional<uint32_t> p = probability(i);
    if (!p || preds.size() != 1 || preds[0] != i) continue;
    uint32_t side = g_.flow.graph.succs[i][0] == b ? *p : invert_probability(*p);
    if (side > kProbUnlikely) continue;
    // A loop's exit runs once per entry of the loop however unlikely each
    // trip finds it (`for (...; likely(i < n); ...)`): not cold.
    uint32_t loop = loops_.header[i];  // i's innermost loop
    if (loop != kNone && !tree_.is_ancestor(loop, b)) continue;
    cold[b] = 1, any = true;
  }
  if (!any) return order;
  std::stable_partition(order.begin(), order.end(), [&](uint32_t b) { return !cold[b]; });
  return order;
}

// Reverse postorder of one level's items from its entry; successors are
// visited in increasing likelihood, so the likeliest comes right after.
void Layout::lay_out(uint32_t level) {
  uint32_t entry = level == root_ ? 0 : header_key(level);
  std::vector<uint32_t> post;
  std::vector<std::pair<uint32_t, uint32_t>> stack{{entry, 0}};
  visited_[entry] = 1;
  auto sort_arcs = [&](uint32_t key) {
    uint32_t last = key < blocks_ && loops_.is_header[key] ? last_block_[key] : kNone;
    std::sort(arcs_[key].begin(), arcs_[key].end(), [&](const Arc& a, const Arc& b) {
      return std::make_tuple(a.from == last, a.from, rank(a), a.to) <
             std::make_tuple(b.from == last, b.from, rank(b), b.to);
    });
  };
  sort_arcs(entry);
  while (!stack.empty()) {
    auto& [key, next] = stack.back();
    if (next < arcs_[key].size()) {
      uint32_t to = arcs_[key][next++].to;
      if (!visited_[to]) {
        visited_[to] = 1;
        sort_arcs(to);
        stack.emplace_back(to, 0);
      }
      continue;
    }
    post.push_back(key);
    stack.pop_back();
  }
  std::vector<uint32_t> seq(post.rbegin(), post.rend());
  if (level != root_ && seq.size() > 1 && rotates(level)) std::rotate(seq.begin(), seq.begin() + 1, seq.end());
  last_block_[level] = last_block_of(seq.back());
  seq_[level] = std::move(seq);
}

std::vector<uint32_t> Layout::run(const DomTree& dom) {
  collect_arcs();
  seq_.assign(blocks_ + 1, {});
  last_block_.assign(blocks_ + 1, kNone);
  visited_.assign(2 * blocks_ + 1, 0);
  for (size_t i = dom.rpo.size(); i-- > 0;)
    if (loops_.is_header[dom.rpo[i]]) lay_out(dom.rpo[i]);
  lay_out(root_);
  // Expand the nested layouts.
  std::vector<uint32_t> order;
  order.reserve(blocks_);
  std::vector<std::pair<uint32_t, uint32_t>> stack{{root_, 0}};
  while (!stack.empty()) {
    auto& [level, next] = stack.back();
    if (next == seq_[level].size()) {
      stack.pop_back();
      continue;
    }
    uint32_t key = seq_[level][next++];
    if (key > blocks_) order.push_back(key - blocks_ - 1);
    else if (loops_.is_header[key]) stack.emplace_back(key, 0);
    else order.push_back(key);
  }
  return move_cold_blocks(std::move(order), dom);
}

}  // namespace

std::vector<uint32_t> order_blocks(const Graph& g, const DomTree& dom, const TreeIndex&, const Loops& loops) {
  return Layout(g, dom, loops).run(dom);
}

}  // namespace pl::son2cfg
