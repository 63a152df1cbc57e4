// dwarf.h - DWARF debugging information from the module's debug section
// (FORMAT.md "Debug information"): .debug_info, .debug_abbrev,
// .debug_ranges and .debug_loc for one compile unit, written through the MC streamer while
// the functions stream by (the line table is MC's, from set_loc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/ir.h"
#include "mc_emitter.h"

namespace pl::x64 {

// What the DIEs of one function need from its code generation.
struct FunctionDebugFacts {
  llvm::MCSymbol* begin = nullptr;  // the function's first byte
  llvm::MCSymbol* end = nullptr;    // one past its last byte
  int32_t cfa_offset = 0;           // CFA - rsp in the body (the frame base is the CFA)
  std::unordered_map<NodeId, int32_t> slot_offsets;  // x64:stackslot node -> rsp-relative offset
  // The code from each label on (to the next one, the last to `end`) belongs
  // to lexical block `second` (-1: the function's outermost scope).
  std::vector<std::pair<llvm::MCSymbol*, int32_t>> scope_runs;
  // Optimized code: where a variable bound to a value is (value_places.h),
  // per index in fn.debug.vars: the address ranges and, for each, the
  // DWARF location expression (a register, or the frame base plus an
  // offset for a spill slot). A bound variable without ranges is
  // "optimized out".
  struct Range {
    llvm::MCSymbol* from = nullptr;
    llvm::MCSymbol* to = nullptr;
    std::string expr;
    // A composite location (DW_OP_piece per piece): the bytes of the
    // variable its pieces cover (the writer adds an empty piece for the
    // rest of the variable's type); 0: a simple location.
    uint64_t covered = 0;
  };
  std::unordered_map<size_t, std::vector<Range>> value_ranges;
};

// The innermost scope of `d` whose source range holds `loc` (-1: none).
int32_t innermost_scope(const FunctionDebug& d, const Loc& loc);

class DwarfWriter {
 public:
  // Opens the unit and writes the types and globals of `header.debug`.
  DwarfWriter(McEmitter& out, const ModuleHeader& header);
  ~DwarfWriter();
  // The function's subprogram DIE (after its code).
  void function(const Function& fn, const FunctionDebugFacts& facts);
  // Closes the unit; writes the address ranges and the abbreviations.
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pl::x64
