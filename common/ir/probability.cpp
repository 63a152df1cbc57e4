// probability.cpp - branch probabilities (probability.h).
#include "ir/probability.h"

#include <cmath>

namespace pl {

uint32_t probability_from_fraction(double p) {
  if (!(p > 0)) return 0;  // NaN too
  if (p >= 1) return kProbOne;
  return static_cast<uint32_t>(std::llround(p * static_cast<double>(kProbOne)));
}

std::optional<size_t> probability_literal_index(OpId op) {
  switch (op) {
    case Op::If: return 0;
    case Op::X64Jcc: return 1;
    case Op::AstExpect: return 0;
    default: return std::nullopt;
  }
}

namespace {

std::optional<uint32_t> literal_probability(const Node& n) {
  std::optional<size_t> i = probability_literal_index(n.op);
  if (!i || n.literals.size() <= *i || !n.literals[*i].is_int()) return std::nullopt;
  uint64_t bits = n.literals[*i].bits();
  if (bits > kProbOne) return std::nullopt;  // negative (an Int) or too large
  return static_cast<uint32_t>(bits);
}

}  // namespace

std::optional<uint32_t> branch_probability(const Node& n) {
  if (n.op != Op::If && n.op != Op::X64Jcc) return std::nullopt;
  return literal_probability(n);
}

std::optional<uint32_t> expect_probability(const Node& n) {
  if (n.op != Op::AstExpect) return std::nullopt;
  return literal_probability(n);
}

void set_branch_probability(Node& n, std::optional<uint32_t> p) {
  std::optional<size_t> i = probability_literal_index(n.op);
  if (!i || n.op == Op::AstExpect) return;
  if (n.literals.size() > *i) n.literals.resize(*i);
  if (n.literals.size() < *i) return;  // a malformed node: leave it to the verifier
  if (p) n.literals.push_back(Literal::integer(static_cast<int64_t>(*p)));
}

void invert_branch_probability(Node& n) {
  if (std::optional<uint32_t> p = branch_probability(n)) set_branch_probability(n, invert_probability(*p));
}

}  // namespace pl
