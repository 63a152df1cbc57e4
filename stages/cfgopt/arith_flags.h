// arith_flags.h - when a compare against zero can read the flags its
// operand's definer left instead (flags-from-arith's test, shared with
// loop-rotate, which rotates a loop only when the compare it moves to the
// latch then costs nothing).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "cfg_edit.h"
#include "x64/x64.h"

namespace pl::cfgopt {

struct DefinerFlags {
  NodeId definer;   // v: the compare's operand, defined in the same block
  size_t position;  // one past v's position in the block
  x64::Cond cond;   // what the flags user reads on v's flags instead of cc
};

// Compare c (a test of its operand v against zero), sitting, or about to sit,
// at position q of block b, whose flags user reads condition cc: when v is
// defined in b by an instruction that leaves flags (x64.h result_flags) of
// c's operand size, and no node between v and position q reads v or is a
// call or an asm, the flags v's definer leaves serve the user, under the
// condition returned (flags_from_arith.cpp's header gives the rules).
std::optional<DefinerFlags> definer_flags(const CfgEdit& g, uint32_t b, size_t q, const Node& c, x64::Cond cc);

}  // namespace pl::cfgopt
