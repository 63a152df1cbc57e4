// test_miscompile.cpp - a deliberately wrong pass, for testing the tools
// that find wrong passes (--bisect-limit). Declared test-only: no -O level
// runs it, only --passes=...,test-miscompile,... does.
//
// Algorithm: the first x64:jcc of the function (lowest id) gets the negated
// condition, its successors unchanged. Invariants needed and kept: the
// cfg-x64 contract (only a condition code literal changes). The meaning is
// not kept, on purpose.
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

size_t test_miscompile(Function& fn, const ModuleHeader&, FunctionCache&) {
  for (Node& n : fn.nodes)
    if (n.op == Op::X64Jcc) {
      std::optional<x64::Cond> cc = cond_at(n, 0);
      if (!cc) return 0;
      set_cond(n, 0, x64::negate(*cc));
      return 1;
    }
  return 0;
}

}  // namespace pl::cfgopt
