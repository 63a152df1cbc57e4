// graph_diff.h - compare two functions as graphs (pipe-diff, and
// --print-changed of sonopt and cfgopt through common/pass_manager).
//
// Node numbering, node order and block order do not count; what counts is
// which node feeds which. The matching (llvm-diff's idea: start from anchors,
// then follow edges) pairs nodes of A with nodes of B:
//  1. Anchors: a node whose opcode and literals occur exactly once in A and
//     exactly once in B (the unique `start`, `entrymem`, each `param`, most
//     symbols and constants) is paired with its twin.
//  2. Down the edges: when a and b are paired and have the same opcode, their
//     control inputs and inputs are paired position by position.
//  3. Up the edges: a user u of a and a user v of b that use them in the same
//     position are paired when they are the only users of a and of b with the
//     same opcode, literals and (where already paired) inputs.
//  4. Steps 2 and 3 repeat until nothing changes; then nodes still unpaired
//     are paired greedily by opcode, literals and paired inputs, and the
//     propagation runs again.
// Then every pair is checked: same opcode, literals (and source location
// unless ignored), and inputs that are each other's pairs. Unpaired nodes of
// A were removed, of B added. At the cfg levels the blocks of paired block
// nodes must hold paired nodes in the same order and have paired successors
// (the dominance section follows from the cfg and is not compared).
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace pl {

struct DiffOptions {
  bool ignore_locations = false;
};

struct NodeDiff {
  enum class Kind { Changed, Inputs, Removed, Added, Block };
  Kind kind;
  NodeId a = 0, b = 0;  // the node in A / in B (per kind: Removed has only a, Added only b)
  std::string note;     // what differs ("literal 1", "input 0", "successors")
};

struct FunctionDiff {
  std::vector<std::string> notes;  // signature, linkage, sections
  std::vector<NodeDiff> nodes;
  bool equal() const { return notes.empty() && nodes.empty(); }
};

FunctionDiff diff_functions(const Function& a, const Function& b, const DiffOptions& options = {});

// Differences of the headers, one line each (level, files, externs, data).
std::vector<std::string> diff_headers(const ModuleHeader& a, const ModuleHeader& b);

// The differences as people read them: each with both sides' printable node
// lines (which carry the source locations).
std::string format_function_diff(const Function& a, const Function& b, const FunctionDiff& diff);

}  // namespace pl
