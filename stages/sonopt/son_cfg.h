// son_cfg.h - the blocks of a sea-of-nodes function, recovered from its
// control nodes, for the passes that need reachability or dominance.
//
// A block is a control point: `start`, a `region`, or a `proj` of an `if`
// (the nodes a pinned node may hang off, FORMAT.md section 3 D). Block 0 is
// the start. Its successors follow its terminator: a `jump` leads to the
// region listing it, an `if` to its proj 0 then proj 1, a `return` nowhere;
// a proj that a region lists directly leads to that region. Reachability and
// dominators (Cooper-Harvey-Kennedy, common/ir/dominance.h) are computed over
// these edges (no dominance frontiers: no pass asks for them). While a
// SonCfg of a Graph is in use, the Graph's control nodes and control edges
// must not change; value edits and new nodes that are no control points
// are fine (block_of_node places a new pinned node by its control input).
#pragma once

#include <vector>

#include "ir/dominance.h"
#include "graph.h"

namespace pl::sonopt {

bool is_control_point(const Graph& g, NodeId n);

struct SonCfg {
  std::vector<NodeId> blocks;      // block index -> control point node
  std::vector<uint32_t> block_of;  // node -> block index (control points only; else DomTree::kNone)
  std::vector<NodeId> terminator;  // block -> its if/jump/return, or kNone
  BlockGraph graph;
  DomTree dom;

  // The block a pinned node (or a control point) belongs to.
  uint32_t block_of_node(const Graph& g, NodeId n) const;
  bool reachable(uint32_t b) const { return dom.reachable(b); }
};

SonCfg build_son_cfg(const Graph& g);

}  // namespace pl::sonopt
