// loc.h - node ids and source locations (ir.h, debug_info.h).
#pragma once

#include <cstdint>

namespace pl {

using NodeId = uint32_t;

// Source location; `line == 0` means "no location". `file` indexes
// ModuleHeader::files.
struct Loc {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  bool operator==(const Loc&) const = default;
};

}  // namespace pl
