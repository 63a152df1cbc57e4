// test_miscompile.cpp - a deliberately wrong pass, for testing the tools
// that find wrong passes (--bisect-limit). Declared test-only: no -O level
// runs it, only --passes=...,test-miscompile,... does.
//
// Algorithm: the first `add` of the function (lowest id) becomes a `sub`.
// Invariants needed and kept: the son contract (only an opcode changes,
// between two opcodes of one shape). The meaning is not kept, on purpose.
#include "passes.h"

namespace pl::sonopt {

size_t test_miscompile(Function& fn, const ModuleHeader&, FunctionCache&) {
  for (Node& n : fn.nodes)
    if (n.op == Op::Add) {
      n.op = Op::Sub;
      return 1;
    }
  return 0;
}

}  // namespace pl::sonopt
