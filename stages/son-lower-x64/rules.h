// rules.h - the selection rules of son-lower-x64 (the table is rules.cpp).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "lowerer.h"

namespace pl::lower {

// One selection rule: when the generic node `op` matches `pattern` and
// `when` holds, it becomes `result`. `apply` checks the condition and, if it
// holds, builds the result and returns its id (for a tuple: the node whose
// projections it defined with Lowerer::define_tuple); otherwise it builds
// nothing and returns kNone. Rules of one opcode are tried in table order;
// the last one of each opcode always applies.
// Rule::op for rules that apply to every opcode common/ir/eval.h evaluates
// (the pure arithmetic, compares and conversions), tried before the
// opcode's own rules.
inline constexpr OpId kAnyPure = kNumOps;

struct Rule {
  OpId op;
  std::string_view name;     // also the golden test's name (tests/stages/son-lower-x64/NAME.in.txt)
  std::string_view pattern;  // Go-rules notation: (op literals inputs)
  std::string_view when;     // the condition, in words ("" = always)
  std::string_view result;   // the x64 nodes built
  NodeId (*apply)(Lowerer&, NodeId);
};

std::span<const Rule> rules();
// Applies the first rule of the node's opcode that matches; the node's
// lowered value is defined by the caller from the returned id. Throws
// FormatError if no rule applies (an opcode son-lower-x64 does not handle).
NodeId select(Lowerer& l, NodeId old);
// schema/LOWERING.md, generated from the table (son-lower-x64 --rules).
std::string rules_document();

}  // namespace pl::lower
