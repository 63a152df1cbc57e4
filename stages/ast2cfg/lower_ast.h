// lower_ast.h - one ast-level function to its cfg-level form (ast2cfg).
#pragma once

#include "ir/ir.h"

namespace pl {

// The ssa: slot that holds the memory state (FORMAT.md, "Memory at the cfg
// level"); variables and temporaries use slots from 1 on.
inline constexpr uint32_t kMemorySlot = 0;

// Translates `ast` (a function at the ast level, FORMAT.md G) into a
// function at the cfg level with the same name, linkage and signature.
// Throws FormatError naming the ast node for input it cannot translate
// (what the verifier rejects at the ast level, when it did not run).
// `vars_in_memory`: every ast:var the debug section names lives in a
// stackslot (-g -O0: a debugger reads it there at any statement). The
// debug section's slots follow their ast:vars to the stackslots; a variable
// kept in an ssa: slot has none (its value moves between nodes).
Function lower_ast_function(const Function& ast, bool vars_in_memory = false);

}  // namespace pl
