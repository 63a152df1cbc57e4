// renumber.h - canonical node numbering.
#pragma once

#include <vector>

#include "ir.h"

namespace pl {

// Renumbers the nodes of `fn` canonically and returns the old -> new map.
//  - With a cfg section: blocks keep their order; each block's node comes
//    first, then the block's nodes in order; nodes in no block come last, in
//    their original order.
//  - Without one (sea of nodes): definitions before uses. A depth-first walk
//    over operands (control inputs, then inputs, in order) from the sinks
//    (nodes nobody uses, in original order; then any node not yet reached)
//    numbers each node after its operands. Operands that close a cycle (phi
//    inputs around a loop, a loop region's back edge) are the only ones that
//    may come later.
// Every reference (control, inputs, cfg, dominance) follows the map.
std::vector<NodeId> renumber_canonical(Function& fn);

// Applies an old -> new permutation to every reference and reorders nodes.
void apply_numbering(Function& fn, const std::vector<NodeId>& old_to_new);

}  // namespace pl
