// bitfield.h - the literals of ast:bitload and ast:bitstore (FORMAT.md G,
// "Bit-fields"), decoded once for the verifier (rule E) and ast2cfg.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/ir.h"

namespace pl {

// A bit-field access: the field's value type (i8, i16, i32 or i64) and
// signedness, its unit's size in bytes, its first bit in the unit and its
// width (1 to the type's bits, inside the unit).
struct BitFieldAccess {
  std::string type;
  bool is_signed = false;
  uint64_t unit = 0;
  uint64_t offset = 0;
  unsigned width = 0;
  bool is_volatile = false;  // the .volatile forms
};

// The access an ast:bitload / ast:bitstore (or .volatile) node describes;
// nullopt when its literals describe none, with `why` saying which literal
// is wrong and how.
std::optional<BitFieldAccess> decode_bitfield(const Node& n, std::string& why);

}  // namespace pl
