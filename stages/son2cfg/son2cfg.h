// son2cfg.h - what the steps of son2cfg share (see son2cfg.cpp for the
// algorithm as a whole). Each step lives in its own file with one entry point:
//   flow.cpp            find_flow        blocks and edges from the control nodes
//   tree_index.cpp      TreeIndex        ancestor, depth and LCA queries on a tree
//   loop_tree.cpp       find_loops       loop nesting forest and loop depths
//   schedule_early.cpp  schedule_early   earliest legal block of each floating node
//   schedule_late.cpp   schedule_late    latest block, then the shallowest loop between
//   local_schedule.cpp  schedule_blocks  the order of the nodes inside each block
//   block_order.cpp     order_blocks     the order of the blocks
//   emit.cpp            emit_function    the cfg-level function
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/dominance.h"
#include "ir/error.h"
#include "ir/ir.h"
#include "x64/x64.h"

namespace pl::son2cfg {

constexpr uint32_t kNone = ~0u;

// What a node is to the scheduler.
enum class Role : uint8_t {
  Head,         // start, region, or an if's proj that pinned nodes hang off (becomes a region)
  ControlProj,  // an if's proj that a region lists: becomes the edge itself (dropped)
  Terminator,   // if, jump, return: last in its block
  Phi,          // first in its block
  Pinned,       // any other node with a control input: stays in its block
  TupleProj,    // proj of a tuple other than an if: placed with its tuple, right after it
  Floating,     // no control input: placed by global code motion
  Dead,         // in (or computed only from) unreachable code: dropped
};

// Node -> its users, with the input slot each use is in (inputs only, not
// control inputs).
struct Users {
  struct Use {
    NodeId user;
    uint32_t slot;
  };
  std::vector<uint32_t> begin;  // size nodes + 1
  std::vector<Use> uses;
  const Use* first(NodeId n) const { return uses.data() + begin[n]; }
  const Use* last(NodeId n) const { return uses.data() + begin[n + 1]; }
  size_t count(NodeId n) const { return begin[n + 1] - begin[n]; }
};

// The control-flow graph found in the sea of nodes. Only blocks reachable from
// start are numbered; block 0 is start's.
struct Flow {
  std::vector<NodeId> head;        // block -> its block node
  std::vector<NodeId> terminator;  // block -> its terminator; kNone: a proj block that
                                   // flows straight into a region (emit adds a jump)
  BlockGraph graph;                // succs (an if's true target first), preds
};

// The function being scheduled. schedule_late may append copies of floating
// nodes to fn.nodes and point some users at them (schedule_late.cpp).
struct Graph {
  Function& fn;
  std::vector<Role> role;
  // Node -> block: fixed for heads, pinned nodes, phis and terminators by
  // find_flow; set for floating nodes and tuple projs by schedule_late.
  std::vector<uint32_t> block;
  Users users;
  Flow flow;
  Level out_level = Level::Ssa;
  // (original, copy) for every copy schedule_late made, in creation order;
  // the copies of one original are consecutive.
  std::vector<std::pair<NodeId, NodeId>> copies;
  // The module's cold callees (x64.h): a loop whose only calls are cold
  // ones does not count as calling for schedule_late's constants.
  const x64::ColdCallees* cold = nullptr;

  explicit Graph(Function& f) : fn(f) {}
  const Node& node(NodeId n) const { return fn.nodes[n]; }
  // The predecessor block whose edge brings input `slot` of phi `phi`, or
  // kNone when that edge comes from unreachable code.
  uint32_t phi_pred(NodeId phi, uint32_t slot) const;
  [[noreturn]] void fail(NodeId n, const std::string& message) const;
};

// Ancestor queries on a forest given by parent links, by binary lifting:
// O(n log n) to build, O(log n) per LCA or ancestor query, O(1) per
// is_ancestor (preorder intervals).
class TreeIndex {
 public:
  // parent[v] is kNone for a root; `order` lists every node once, each after
  // its parent. Nodes not in `order` are left out of every query.
  TreeIndex(const std::vector<uint32_t>& parent, const std::vector<uint32_t>& order);
  uint32_t depth(uint32_t v) const { return depth_[v]; }
  uint32_t parent(uint32_t v) const { return up_[0][v]; }
  // a == b or a is an ancestor of b.
  bool is_ancestor(uint32_t a, uint32_t b) const { return pre_[a] <= pre_[b] && post_[b] <= post_[a]; }
  // The ancestor of v (or v) at depth d <= depth(v).
  uint32_t ancestor_at_depth(uint32_t v, uint32_t d) const;
  // Lowest common ancestor; kNone stands for "no block yet" (lca(kNone, b) = b).
  uint32_t lca(uint32_t a, uint32_t b) const;
  // up(k)[v] = the 2^k-th ancestor of v, kNone above the root.
  const std::vector<uint32_t>& up(size_t k) const { return up_[k]; }
  size_t levels() const { return up_.size(); }

 private:
  std::vector<std::vector<uint32_t>> up_;
  std::vector<uint32_t> depth_, pre_, post_;
};

struct Loops {
  std::vector<char> is_header;     // block -> heads a natural loop
  std::vector<uint32_t> header;    // block -> innermost loop header containing it (itself for a header), kNone
  std::vector<uint32_t> parent;    // header -> header of the enclosing loop, kNone
  std::vector<uint32_t> depth;     // block -> number of loops containing it
};

// Opcode properties the scheduler asks about (from the opcode table).
bool produces_memory(OpId op);   // results include a memory state
bool reads_memory_only(OpId op); // has a memory input and produces no memory (a load)
bool is_memory_slot(OpId op, uint32_t slot);  // input `slot` has shape letter 'm'
bool produces_flags(OpId op);    // an x64 flags producer (results "f")

Graph find_flow(Function& fn);
Loops find_loops(const Graph& g, const DomTree& dom, const TreeIndex& domi);
// Returns the floating nodes (and tuple projs) in postorder: inputs first.
std::vector<NodeId> schedule_early(Graph& g, const TreeIndex& domi, std::vector<uint32_t>& early);
void schedule_late(Graph& g, const TreeIndex& domi, const Loops& loops, const std::vector<uint32_t>& early,
                   const std::vector<NodeId>& postorder);
// The nodes of each block in execution order (the block node excluded; the
// terminator, if any, last).
std::vector<std::vector<NodeId>> schedule_blocks(const Graph& g);
// Block indexes in layout order; block 0 first.
std::vector<uint32_t> order_blocks(const Graph& g, const DomTree& dom, const TreeIndex& domi, const Loops& loops);
Function emit_function(const Graph& g, const DomTree& dom, const std::vector<uint32_t>& layout,
                       const std::vector<std::vector<NodeId>>& schedule);

}  // namespace pl::son2cfg
