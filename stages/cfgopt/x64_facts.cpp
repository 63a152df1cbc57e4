// x64_facts.cpp - see x64_facts.h.
#include "x64_facts.h"

#include "ir/eval.h"
#include "x64/eval_x64.h"

namespace pl::cfgopt {

std::optional<unsigned> type_bits_at(const Node& n, size_t i) {
  if (i >= n.literals.size()) return std::nullopt;
  std::optional<ValueType> t = literal_value_type(n.literals[i]);
  if (!t) return std::nullopt;
  unsigned bits = type_bits(*t);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return std::nullopt;
  return bits;
}

std::optional<x64::Cond> cond_at(const Node& n, size_t i) {
  if (i >= n.literals.size() || n.literals[i].kind() != Literal::Kind::String) return std::nullopt;
  return x64::parse_cond(n.literals[i].as_string());
}

void set_cond(Node& n, size_t i, x64::Cond c) { n.literals[i] = Literal::string(x64::cond_name(c)); }

std::optional<uint64_t> known_value(const Function& fn, NodeId v, unsigned bits) {
  const Node& n = fn.nodes[v];
  if (n.op != Op::X64MovI || n.literals.size() < 2 || !n.literals[1].is_int()) return std::nullopt;
  std::optional<unsigned> size = type_bits_at(n, 0);
  if (!size || (*size < 32 && bits > *size)) return std::nullopt;  // the upper bits are unspecified
  return truncate_to(x64_fresh(n.literals[1].bits(), *size), bits);
}

bool is_compare(OpId op) { return op == Op::X64Cmp || op == Op::X64CmpI || op == Op::X64Test || op == Op::X64TestI; }

std::optional<uint64_t> compare_flags(const Node& c, uint64_t a, uint64_t b) {
  std::optional<unsigned> bits = type_bits_at(c, 0);
  if (!bits) return std::nullopt;
  if (c.op == Op::X64CmpI || c.op == Op::X64TestI) {
    if (c.literals.size() < 2 || !c.literals[1].is_int()) return std::nullopt;
    b = c.literals[1].bits();  // a sign-extended 32-bit immediate
  }
  if (c.op == Op::X64Cmp || c.op == Op::X64CmpI) return x64_flags_cmp(a, b, *bits);
  if (c.op == Op::X64Test || c.op == Op::X64TestI) return x64_flags_test(a, b, *bits);
  return std::nullopt;
}

}  // namespace pl::cfgopt
