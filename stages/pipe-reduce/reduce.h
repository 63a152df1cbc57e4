// reduce.h - the pieces of pipe-reduce (see pipe-reduce.cpp for the tool).
//
//   pipe-reduce.cpp  command line, the interestingness test, the passes
//   edit.cpp         edits of one function that keep it well formed: node
//                    rewrites, removal of dead nodes and unreachable blocks
//
// Every edit works on a copy; whether the result is still valid at its level
// is the verifier's call (pipe-reduce verifies each candidate before it runs
// the test), so an edit only has to keep the structure readable.
#pragma once

#include <optional>

#include "ir/ir.h"

namespace pl::reduce {

// A node's value type when it is known from its literals ("i32" for a
// comparison, the target of a conversion, the result of a call's proj 1...);
// nullopt for memory, control, tuples and untyped phis.
std::optional<std::string> value_type(const Function& fn, NodeId id);

// The node becomes `const TYPE 0` (no control, no inputs).
void make_constant(Function& fn, NodeId id, const std::string& type);
// The node becomes `undefined` (`ssa:undefined` at ssa).
void make_undefined(Function& fn, NodeId id, Level level);
// Every use of `from` (inputs only) now uses `to`; false if none did.
bool replace_uses(Function& fn, NodeId from, NodeId to);
// The `if` becomes a `jump` to its successor `keep` (0: true side); the edge
// to the other side goes away (from its region and the region's phis).
// False if the node is not a two-way `if` this can rewrite.
bool fold_branch(Function& fn, NodeId if_node, int keep);
// Merges the block of `region` into the block above it when the region's
// only entry is a `jump`: pinned nodes move up, one-input phis give way to
// their input, the region and the jump go. False if it does not apply.
bool merge_block(Function& fn, NodeId region);
// Removes blocks (cfg levels) or control nodes (sea of nodes) that are no
// longer reachable from the start, and with `unused_too` every node nothing
// live uses (roots: block and control nodes, terminators, ssa:store).
// Recomputes the dominance section when there is one. False if a kept node
// still uses a removed one (the edit that led here was not valid).
bool remove_dead(Function& fn, bool unused_too);
// Keeps the nodes marked in `keep` (renumbered in order, blocks updated,
// dominance recomputed). False if a kept node uses a removed one.
bool remove_nodes(Function& fn, const std::vector<bool>& keep);

// Nodes of the function, apart from literals: the size pipe-reduce shrinks.
size_t node_count(const Function& fn);

}  // namespace pl::reduce
