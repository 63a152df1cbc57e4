// probability.cpp - branch probabilities (probability.h).
#include "ir/probability.h"

#include <cmath>
#include <string_view>

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

std::optional<uint32_t> ast_branch_probability(const Function& fn, NodeId id) {
  bool inverted = false;
  for (;;) {
    const Node& n = fn.nodes[id];
    if (n.op == Op::AstExpect) {
      std::optional<uint32_t> p = expect_probability(n);
      if (p && inverted) p = invert_probability(*p);
      return p;
    }
    if (n.op == Op::AstSeq && n.inputs.size() == 2) {
      id = n.inputs[1];
      continue;
    }
    if (n.op != Op::AstOp || n.literals.empty() || n.literals[0].kind() != Literal::Kind::String)
      return std::nullopt;
    std::string_view name = n.literals[0].as_string();
    if ((name == "sext" || name == "zext") && n.inputs.size() == 1) {
      id = n.inputs[0];
      continue;
    }
    if ((name != "eq" && name != "ne") || n.inputs.size() != 2) return std::nullopt;
    auto zero = [&](NodeId k) {
      const Node& c = fn.nodes[k];
      return c.op == Op::AstConst && c.literals.size() == 2 && c.literals[1].is_int() && c.literals[1].bits() == 0;
    };
    if (zero(n.inputs[1])) id = n.inputs[0];
    else if (zero(n.inputs[0])) id = n.inputs[1];
    else return std::nullopt;
    if (name == "eq") inverted = !inverted;
  }
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
