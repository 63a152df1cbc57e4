// text_format.h - pieces of the printable encoding other code reuses.
#pragma once

#include <string>

#include "ir/ir.h"

namespace pl {

// One node as the printable form writes it, without indentation or newline:
//   i7 = add ^i2, "i32", i5, i6 @0:12:3
std::string print_node_line(const Function& fn, NodeId id);

}  // namespace pl
