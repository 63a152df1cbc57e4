// alloc_check.h - the allocation checker of the ra-x64 level (seed 001,
// "Assignment Verification"; regalloc2's src/checker.rs is the model). The
// verifier runs it on every ra-x64 function whose other rules hold, so
// pipe-verify, and every tool reading or writing ra-x64 with --verify, checks
// each allocation. It knows nothing of the allocator (stages/regalloc-x64/):
// it reads only the graph, its places and the machine columns (x64.h).
// alloc_check.cpp's header comment lists what it checks and how.
#pragma once

#include <vector>

#include "ir/error.h"
#include "ir/ir.h"

namespace pl {

// Checks the places of `fn`, an ra-x64 function that passes every other rule
// of the verifier (shapes, kinds, cfg, dominance). Appends one Diagnostic per
// violation, sorted by node (Where::in(function, "iN"), context = the node).
void check_allocation(const Function& fn, std::vector<Diagnostic>& out);

}  // namespace pl
