// float_use.cpp - find_float_use (float_use.h).
#include "ir/float_use.h"

#include "ir/abi.h"
#include "ir/eval.h"

namespace pl {

std::optional<FloatUse> find_float_use(const Function& fn) {
  for (const std::string& p : fn.signature.params)
    if (is_float_type(param_value_type(p))) return FloatUse{std::nullopt, "parameter type " + p};
  if (is_float_type(fn.signature.result)) return FloatUse{std::nullopt, "result type " + fn.signature.result};
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    const Node& n = fn.nodes[id];
    if (n.op < kNumOps && is_float_op(n.op)) return FloatUse{id, std::string(op_info(n.op).name)};
    for (const Literal& lit : n.literals)
      if (lit.kind() == Literal::Kind::String && is_float_type(lit.as_string()))
        return FloatUse{id, "type " + std::string(lit.as_string())};
  }
  return std::nullopt;
}

}  // namespace pl
