// x64_facts.h - what cfgopt's passes read off x64 nodes: operand sizes,
// the register values of constants, the flags of compares on known values,
// condition codes. Folding is interpreting: the values come from
// common/x64/eval_x64.h, the functions pipe-run executes.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/ir.h"
#include "x64/x64.h"

namespace pl::cfgopt {

// The operand size, in bits, of a type literal (literal i of node n).
std::optional<unsigned> type_bits_at(const Node& n, size_t i);
// The condition code literal (literal i of node n).
std::optional<x64::Cond> cond_at(const Node& n, size_t i);
void set_cond(Node& n, size_t i, x64::Cond c);

// The low `bits` bits of value v when v is an x64:movi whose register
// holds them on the hardware (a 32- or 64-bit movi, or a narrower one read
// at no more than its own size); nullopt otherwise.
std::optional<uint64_t> known_value(const Function& fn, NodeId v, unsigned bits);

// Whether op is a compare (x64:cmp, cmpi, test, testi).
bool is_compare(OpId op);
// The flags compare node c computes when its value inputs are `a` (and `b`:
// ignored for cmpi / testi, whose immediate is used instead).
std::optional<uint64_t> compare_flags(const Node& c, uint64_t a, uint64_t b);

}  // namespace pl::cfgopt
