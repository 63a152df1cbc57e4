// passes.h - the entry points of cfgopt's passes (one file each, named after
// the pass). The pass table that declares them (order, triggers, -O levels)
// is in cfgopt.cpp.
//
// Every entry point takes one cfg-x64 function and the module header and
// returns the number of changes it made (0: the function is unchanged, byte
// for byte).
#pragma once

#include <cstddef>

#include "ir/ir.h"
#include "tool/pass_manager.h"

namespace pl::cfgopt {

size_t thread_jumps(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t loop_rotate(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t remove_empty_blocks(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t merge_blocks(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t reuse_flags(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t peephole(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t flags_from_arith(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t invert_branches(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t test_miscompile(Function& fn, const ModuleHeader& header, FunctionCache& cache);

}  // namespace pl::cfgopt
