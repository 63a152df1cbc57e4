// renumber.h - canonical node numbering.
#pragma once

#include <vector>

#include "ir/ir.h"

namespace pl {

// Renumbers the nodes of `fn` canonically and returns the old -> new map.
//  - With a cfg section: blocks keep their order; each block's node comes
//    first, then the block's nodes in order; nodes in no block come last, in
//    their original order.
//  - Without one (sea of nodes): definitions before uses. A depth-first walk
//    over operands (control inputs, then inputs, in order) from the sinks
//    (nodes nobody uses, in original order; then any node not yet reached)
//    numbers each node after its operands. The walk leaves out a region's
//    control inputs and a phi's inputs, the only edges that may close a
//    cycle, so in a graph that verifies they are the only references that
//    may point to a later node.
// Every reference (control, inputs, cfg, dominance) follows the map.
std::vector<NodeId> renumber_canonical(Function& fn);

// Whether every edge the sea-of-nodes order respects (control inputs except
// a region's, inputs except a phi's) points to a lower id: then those edges
// form no cycle, and a pass that wants definitions before uses can take the
// nodes in id order as they are. One linear scan, no allocation.
bool defs_precede_uses(const Function& fn);

}  // namespace pl
