// probability.h - branch probabilities (FORMAT.md section 7, "Branch
// probabilities"): the optional last literal of `if` and `x64:jcc`, and the
// literal of `ast:expect`.
//
// A probability is an integer p in 0 .. 2^31, meaning p / 2^31 (LLVM's
// BranchProbability denominator): an integer literal, so every encoding
// carries it bit-exactly, and `1 - p` (2^31 - p) is exact, so inverting a
// branch twice gives back the literal it had. On `if` and `x64:jcc` it is
// the probability that the branch goes to its proj 0 (the condition holds,
// successor 0); on `ast:expect` that its value is non-zero.
//
// It is a layout hint (son2cfg's block order, cfgopt's invert-branches,
// sonopt's if-convert), never a fact: a stage that cannot keep it drops it,
// and no stage may change what a program computes because of it.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/ir.h"

namespace pl {

inline constexpr uint32_t kProbOne = uint32_t{1} << 31;
// gcc's builtin-expect-probability (90%), as LLVM rounds it: 0.9 * 2^31.
inline constexpr uint32_t kProbLikely = 1932735283;
inline constexpr uint32_t kProbUnlikely = kProbOne - kProbLikely;  // 10%
// A branch this likely or unlikely (gcc's predictable-branch-outcome, 2%)
// is predictable: if-convert leaves it a branch.
inline constexpr uint32_t kProbPredictable = 42949673;  // 2% of 2^31

// p (0 .. 1) in parts of 2^31, rounded to nearest; out of range clamps.
uint32_t probability_from_fraction(double p);
inline uint32_t invert_probability(uint32_t p) { return kProbOne - p; }

// The index of the probability literal of a node of opcode `op` (if:
// 0, x64:jcc: 1, ast:expect: 0); nullopt for every other opcode.
std::optional<size_t> probability_literal_index(OpId op);

// The probability that branch `n` (an if or x64:jcc) goes to its proj 0,
// if it carries one that is in range.
std::optional<uint32_t> branch_probability(const Node& n);
// Sets (or with nullopt removes) the probability of branch `n`.
void set_branch_probability(Node& n, std::optional<uint32_t> p);
// The branch's condition was negated and its successors swapped (or its
// projs exchanged): the probability goes to the other side.
void invert_branch_probability(Node& n);
// The probability that a branch on `n` (an ast:expect) finds it non-zero.
std::optional<uint32_t> expect_probability(const Node& n);
// At the ast level: the probability that a branch on node `id` of `fn`
// finds it non-zero: the ast:expect it is, read through `eq x 0`
// (inverted), `ne x 0`, sext/zext and a seq's value (ast2cfg gives it to
// the branch; c2ast asks whether a condition has one already).
std::optional<uint32_t> ast_branch_probability(const Function& fn, NodeId id);

}  // namespace pl
