// float_use.h - where a function uses floating point (issue 18).
//
// The stages that do not handle f32/f64 yet (son-lower-x64 and the back end
// behind it, pipe-run's interpreter) refuse a function that uses them, by
// name and at the first node that does, instead of treating a floating value
// as an integer: find_float_use() finds that node.
#pragma once

#include <optional>
#include <string>

#include "ir/ir.h"

namespace pl {

struct FloatUse {
  std::optional<NodeId> node;  // none: the signature
  std::string what;            // "fadd", "type f64", "parameter type f32"
};

// The first floating-point use of `fn`, in node order after the signature: a
// floating-point opcode (eval.h is_float_op) or a literal naming f32 or f64;
// nullopt if there is none.
std::optional<FloatUse> find_float_use(const Function& fn);

}  // namespace pl
