// scev.h - scalar evolution: how the values of a loop change from one trip
// to the next, its trip count, and the value of each after the last trip.
//
// A value's evolution in a simple loop L (loops.h) is a chain of
// recurrences in Newton form (Bachmann, Wang, Zima, "Chains of Recurrences
// - a method to expedite the evaluation of closed-form functions", ISSAC
// 1994; as LLVM's ScalarEvolution uses them): {c0, +, c1, +, c2} is the
// value c0 + c1*k + c2*C(k, 2) on the k-th arrival at L's header (k = 0
// on entry), order 0 a value L does not change, order 1 {start, +, step}
// an induction variable, order 2 a sum of one (`s += i`). The coefficients
// are expressions (ScevExpr) over nodes L does not change; such a node may
// itself evolve in a loop around L, where the analysis of that loop sees
// it (a nest is analysed inner loop first: once an inner loop's exit values
// are closed forms over the outer loop's values, the outer loop's values
// are recurrences again - {x, +, n} for `for.. x++` in a loop of n trips).
// All arithmetic wraps modulo 2^w of the value's type (FORMAT.md section 7),
// and so do the coefficients: a recurrence holds bit for bit, not only
// while nothing overflows. A `ptr` recurrence has a `ptr` c0 and i64 steps.
//
// Evolutions (Scev::evolution), by node:
//   const, a node L does not change (loops.h loop_invariant): order 0;
//   a phi of L's header with one entry and one back input, where the back
//     input is the phi plus a recurrence R of order r <= 1 not reading the
//     phi: {entry, +, R} of order r + 1 (the phi is a "self" term while its
//     back input is evaluated; any other use of it there fails);
//   add, sub, neg, trunc: coefficient-wise (trunc commutes with wrapping;
//     `sub "i64" p, q` of two pointers is an i64 recurrence);
//   mul: by an order-0 value coefficient-wise, two order-1 values as
//     {a0 b0, +, a0 b1 + a1 b0 + a1 b1, +, 2 a1 b1}; shl by a constant as a
//     mul; an order above 2 fails;
//   sext (zext) of the exit test's recurrence {a, +, s}, once its trip
//     count is known and the compare is signed (unsigned): {sext a, +,
//     sext s}, since the test's values on every arrival at the header,
//     a + k*s for k = 0..T, do not wrap in that signedness (the conditions
//     below); `long s; for (int i..) s += i` is a sum again;
//   anything else (loads and other pinned nodes of L, phis of L's body or
//   of inner loops, divisions, sext/zext of other varying values - their
//   no-wrap facts are not known here) has no evolution.
//
// Trip count (Scev::trip_count): the number T of times a simple loop whose
// header ends with its exit test runs its body. The test, normalized so
// that it says when control stays (a test staying on false is negated: !(a
// < b) is b <= a), compares X = {a, +, s} (s a constant step, read signed)
// with an order-0 value B; w is the compare's width, MIN/MAX its signed or
// unsigned limits, d = |s|:
//   X < B, s > 0:  T = a < B ? (B - a - 1) /u d + 1 : 0, provided X cannot
//                  step past MAX after its last value below B: d = 1, or B
//                  a constant <= MAX - d + 1 (else no count: X may wrap);
//   B < X, s < 0:  the mirror, T = B < a ? (a - B - 1) /u d + 1 : 0, with
//                  d = 1 or a constant B >= MIN + d - 1;
//   X <= B / B <= X with a constant B: as X < B + 1 / B - 1 < X (B + 1 and
//                  B - 1 must not wrap, and the conditions above hold);
//   X != B (or exit on X == B): T = (B - a) / s exactly modulo 2^w: for an
//                  odd s, (B - a) * s^-1; for s = 2^z s', when B - a is
//                  visibly a multiple of 2^z (a constant, a product by or a
//                  shift left by a constant, `p != base + n * 4`), the
//                  quotient by 2^z times s'^-1, modulo 2^(w - z); else none.
//                  A pointer's B - a is `sub "i64"` (C's p - q), built only
//                  when it does not cancel to an offset.
// Every T is exact: the loop provably runs T times and stops (an IV that
// may wrap gives no count; C's "signed overflow is undefined" is gone from
// the IR, which has no nsw flags, so nothing is assumed from source types).
//
// Closed forms (Scev::at): {c0, +, c1, +, c2} after T trips is c0 + c1*T +
// c2*T(T-1)/2 modulo 2^w. T is exact in its own width, so it widens with
// zext; T(T-1)/2 is computed in the wider of the two widths with the even
// factor halved first (select(T & 1, T * ((T-1) >> 1), (T >> 1) * (T-1))),
// so no division by 2 of a wrapped product ever happens.
//
// Expressions are built in a pool with constant folding and a few
// identities (x + 0, x * 1, (x + y) - x) and become nodes only when a pass
// materializes them, so a failed analysis leaves the graph untouched.
// Invariants needed: the son contract, a SonCfg and LoopForest of the graph
// (valid while control nodes stay; new floating nodes are fine).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "loops.h"

namespace pl::sonopt {

using ExprId = int32_t;
inline constexpr ExprId kNoExpr = -1;

struct ScevExpr {
  enum class Kind : uint8_t { Const, Leaf, Op } kind = Kind::Const;
  OpId op = Op::Const;
  ValueType type = ValueType::I64;   // Const/Leaf: its type; Op: the literal type (a compare's operands,
                                     // a conversion's source)
  ValueType to = ValueType::I64;     // conversions: the target type
  NodeId node = kNone;               // Leaf
  uint64_t value = 0;                // Const
  std::array<ExprId, 3> in = {kNoExpr, kNoExpr, kNoExpr};
};

// A chain of recurrences {c[0], +, c[1], +, c[2]} (up to c[order]).
// `self`: the value is the phi being analysed plus this (only while its
// back input is evaluated).
struct Chrec {
  ValueType type = ValueType::I64;
  int order = 0;
  std::array<ExprId, 3> c = {kNoExpr, kNoExpr, kNoExpr};
  bool self = false;
};

class Scev {
 public:
  // `memo` is cleared here and used for this loop only (one per pass
  // application, so a Scev costs what it visits, not the graph's size).
  Scev(const Graph& g, const SonCfg& cfg, const Loop& loop, InvariantMemo& memo);

  // n's evolution in the loop, or nullopt (see the header comment).
  std::optional<Chrec> evolution(NodeId n);
  // The loop's trip count, an expression of the exit test's width (i64 for
  // a pointer compare) holding the exact count; nullopt when unknown.
  std::optional<ExprId> trip_count(const HeaderTest& test);
  // The value of `ch` (no self term) after `trips` trips.
  std::optional<ExprId> at(const Chrec& ch, ExprId trips);
  // Nodes computing e (floating, pure; shared within this Scev), at loc.
  NodeId materialize(Graph& g, ExprId e, Loc loc);
  const ScevExpr& expr(ExprId e) const { return pool_[static_cast<size_t>(e)]; }
  // The constant value of e, if it is one.
  std::optional<uint64_t> constant(ExprId e) const;

 private:
  ExprId push(ScevExpr e);
  ExprId konst(ValueType t, uint64_t v);
  ExprId leaf(NodeId n, ValueType t);
  ValueType result_of(ExprId e) const;
  ExprId binary(OpId op, ValueType t, ExprId a, ExprId b);
  ExprId add(ValueType t, ExprId a, ExprId b);  // t Ptr: a ptr + b i64
  ExprId sub(ValueType t, ExprId a, ExprId b);  // t Ptr: an i64 difference
  std::optional<std::pair<ExprId, ExprId>> as_add(ExprId e);
  ExprId mul(ValueType t, ExprId a, ExprId b);
  ExprId convert(OpId op, ValueType from, ValueType to, ExprId a);
  ExprId select(ValueType t, ExprId c, ExprId a, ExprId b);
  ExprId exact_quotient(ValueType t, ExprId diff, uint64_t step);
  ExprId halve(ValueType t, ExprId diff, unsigned z, int depth);
  ExprId binomial2(ExprId trips, ValueType t);
  ValueType coeff_type(const Chrec& ch, int i) const;

  std::optional<Chrec> compute(NodeId n);
  std::optional<Chrec> phi_evolution(NodeId phi);
  std::optional<Chrec> combine_add(const Chrec& a, const Chrec& b, bool subtract);
  std::optional<Chrec> combine_mul(const Chrec& a, const Chrec& b);
  std::optional<Chrec> scale(const Chrec& a, ExprId k);
  std::optional<Chrec> pointer_difference(const Chrec& a, const Chrec& b);
  std::optional<ExprId> count_less(bool is_signed, unsigned bits, ValueType t, const Chrec& x, ExprId bound,
                                   bool increasing);

  const Graph& g_;
  const SonCfg& cfg_;
  const Loop& loop_;
  NodeId region_;
  InvariantMemo& memo_;
  std::vector<ScevExpr> pool_;
  std::map<NodeId, ExprId> leaves_;
  std::map<NodeId, std::optional<Chrec>> evolutions_;
  std::vector<NodeId> in_progress_;  // header phis whose back input is being evaluated (innermost last)
  std::map<ExprId, NodeId> built_;
  // The exit test's recurrence, once trip_count found that it does not
  // wrap (in the compare's signedness) on any arrival at the header.
  struct NoWrap {
    ExprId start = kNoExpr, step = kNoExpr;
    ValueType type = ValueType::I64;
    bool is_signed = false;
  };
  std::optional<NoWrap> nowrap_;
  int budget_ = 4096;  // nodes evaluated per Scev: a DAG may be large, the recurrences are small
};

// The trip count of a simple loop when it is a constant of at most
// max_trips: scalar evolution's exact count (Scev::trip_count) when it is a
// constant; for a loop scev cannot count (a counter that is no
// add-recurrence: `i *= 2`, `i = i * 3 + 1`, `i ^= ...`; a test on a value
// scev has no evolution for), loops.h's trip_count, which evaluates the
// header phis trip by trip. unroll and unroll-partial count trips so.
std::optional<int> constant_trip_count(const Graph& g, const SonCfg& cfg, const Loop& loop, const HeaderTest& test,
                                       InvariantMemo& memo, int max_trips);

}  // namespace pl::sonopt
