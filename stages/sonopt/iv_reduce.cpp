// iv_reduce.cpp - induction-variable strength reduction: an address
// `base + ext(i) * size` in a loop, where i steps by a constant, becomes a
// pointer that steps by size * step; then, when the counter is left only
// for the exit test, the test compares the pointer instead (linear-function
// test replacement) and the counter goes.
//
// Algorithm, for each simple loop (loops.h) whose header ends with its exit
// test, inner loops first:
//  1. Induction variables: header phis with two inputs (the entry and one
//     back edge) whose back input is `add t phi, c` with c a constant (the
//     step, read signed).
//  2. No-wrap facts from the exit test. The condition that stays in the loop
//     is normalized to `a < b` or `a <= b` (slt/sle signed, ult/ule
//     unsigned; a test that stays on false is negated by swapping). For
//     `i < n` (or `i <= n`) and a step s > 0, i is at most hi = n-1 (n) when
//     n is a constant, else MAX-1 (MAX) of the compare's signedness and
//     type; the increment taken after the test cannot wrap when hi + s <=
//     MAX. Symmetrically `n < i` with s < 0 and MIN. A signed fact makes
//     `sext(i + s) = sext(i) + s`, an unsigned one the same for zext. (The IR
//     has no nsw flags: C's "signed overflow is undefined" is gone by then,
//     so the facts come from the test, never from the source types.)
//  3. Reducible addresses: `add "ptr" B, X` with B a loop-invariant pointer
//     and X one of i64(i), i64(i) * c, i64(i) << c, where i64(i) is i itself
//     when i is 64 bits wide, else sext/zext of i to i64 with the matching
//     no-wrap fact. Profitability (decision): an X whose scale is 1, 2, 4
//     or 8 is reduced only when step 5 can then replace the exit test (so
//     the counter may go): x64 addressing computes base + index * 1/2/4/8,
//     and a sign extension costs one instruction, no more than the pointer's
//     own step, while a new pointer phi beside a counter that stays is one
//     more register live through the loop. Only innermost loops are
//     reduced: in an outer loop the address is computed once per inner loop
//     run, and the new phis would stay live through the inner loop.
//     `(B + X) + E` with E a loop-invariant i64 that is not a constant is
//     reduced as (B + E) + X (64-bit modular arithmetic: the same address),
//     so E is no longer live in the loop; with E a constant, B + X is
//     reduced and `P + E` stays, a displacement in the address, so the
//     fields of a struct element share one pointer.
//  4. Each becomes a new header phi P: entry input `add "ptr" B, X[i :=
//     init]` (the chain rebuilt over the phi's entry input, folded later by
//     idealize), back input `add "ptr" P, size*step` (64-bit modular
//     arithmetic, so P = B + X holds in every iteration the no-wrap fact
//     covers, and at the exit). Every use of the address reads P.
//  5. Test replacement: when the counter i is used only by its increment and
//     the exit test `i < n` (stays on true or false), its entry value i0 and
//     n are constants with i0 <= n, (n - i0) divisible by the step s > 0,
//     and a reduced pointer P = B + X(i) exists with |size| * (n - i0) <
//     2^62, the test becomes `P != B + X(n)` (`eq` when the loop stays on
//     false): i takes exactly the values i0, i0+s, ..., n, and for these
//     P = B + X(n) only at n, since size * (n - i) is never 0 modulo 2^64.
//     The counter and its increment are then dead (dce removes them).
// Paper: Cocke and Kennedy, "An algorithm for reduction of operator
// strength" (CACM 1977); Allen, Cocke, Kennedy, "Reduction of Operator
// Strength" (1981), test replacement included; here on the sea of nodes,
// where a new induction variable is one phi and one add.
// Invariants needed: the son contract. Kept: the son contract (the new phi
// hangs off the header region with one input per control input; its entry
// input is built from nodes defined outside the loop, its back input from
// itself and a constant); every replaced address equals its replacement in
// every iteration (the no-wrap facts above).
#include <algorithm>

#include "loops.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

struct Induction {
  NodeId phi = kNone;
  NodeId next = kNone;  // the back input: add t phi, c
  int64_t step = 0;
  ValueType type = ValueType::I64;
  bool signed_nowrap = false, unsigned_nowrap = false;
};

// The exit test, normalized to "stay while lhs < rhs (strict) or <=".
struct Compare {
  NodeId lhs = kNone, rhs = kNone;
  bool strict = true, is_signed = true;
  ValueType type = ValueType::I64;
};

// An offset X = scale * ext(phi) of step 3.
struct Offset {
  const Induction* iv = nullptr;
  OpId ext = Op::Const;   // SExt, ZExt, or Const for none
  OpId scale_op = Op::Const;  // Mul, Shl, or Const for none
  NodeId scale_const = kNone;
  int64_t scale = 1;
};

__extension__ typedef __int128 Wide;  // bounds of 64-bit values without overflow

class IvReduce {
 public:
  IvReduce(Graph& g, bool memset_ok)
      : g_(g), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), forest_(find_loops(g, cfg_)), memset_ok_(memset_ok) {}

  size_t run() {
    size_t changes = 0;
    for (const Loop& loop : forest_.loops)
      if (loop.simple() && loop.latches.size() == 1 && innermost(loop) &&
          !memset_idiom_loop(g_, cfg_, loop, memset_ok_))  // loop-idiom's
        changes += reduce(loop);
    return changes;
  }

 private:
  size_t reduce(const Loop& loop) {
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    if (!test) return 0;
    std::optional<Compare> cmp = normalize(*test);
    std::vector<Induction> ivs = inductions(loop, cmp);
    if (ivs.empty()) return 0;
    memo_.clear();
    size_t changes = 0;
    std::vector<std::pair<NodeId, Offset>> reduced;  // new phi, its offset
    std::vector<NodeId> adds = candidates(ivs);
    // Nested forms first: reducing their inner add first would hide them.
    for (bool nested : {true, false})
      for (NodeId a : adds) {
        if (!g_.alive(a)) continue;
        std::optional<Match> m = match(loop, a, ivs, nested);
        if (!m || (!worth_it(m->off) && !(cmp && test_replaceable(loop, *cmp, m->off)))) continue;
        if (m->extra == kNone) {
          // The same B + X as an address reduced before (equal nodes GVN
          // has not merged yet): its pointer serves.
          auto same = std::find_if(reduced.begin(), reduced.end(), [&](const std::pair<NodeId, Offset>& r) {
            return reduced_base(r.first, loop) == m->base && same_offset(r.second, m->off);
          });
          if (same != reduced.end()) {
            g_.replace_uses(a, same->first);
            g_.kill_if_unused(a);
            ++changes;
            continue;
          }
        }
        NodeId base = m->extra == kNone ? m->base : add_ptr(m->base, m->extra, g_.node(a).loc);
        reduced.push_back({rewrite(loop, a, base, m->off), m->off});
        ++changes;
      }
    if (cmp) changes += replace_test(loop, *test, *cmp, reduced);
    return changes;
  }

  static bool same_offset(const Offset& a, const Offset& b) {
    return a.iv == b.iv && a.ext == b.ext && a.scale_op == b.scale_op && a.scale == b.scale;
  }

  bool innermost(const Loop& loop) const {
    return std::none_of(forest_.loops.begin(), forest_.loops.end(),
                        [&](const Loop& other) { return other.header != loop.header && loop.contains(other.header); });
  }

  // Step 3's shapes: `add "ptr" B, X`, or (nested) `add "ptr" (add "ptr" B,
  // X), E` with E a loop-invariant integer, reduced over base B + E (so E
  // is not live in the loop: a[k][j] with j fixed becomes one pointer).
  struct Match {
    NodeId base = kNone, extra = kNone;
    Offset off;
  };

  std::optional<Match> match(const Loop& loop, NodeId a, const std::vector<Induction>& ivs, bool nested) {
    for (int side = 0; side < 2; ++side) {
      NodeId p = g_.node(a).inputs[side], x = g_.node(a).inputs[1 - side];
      if (nested) {
        // A constant E is left to the address: every `(B + X) + c` then
        // shares the one pointer for B + X (a struct's fields through one
        // pointer, each at its displacement) instead of a pointer per c.
        if (g_.is_const(x)) continue;
        if (result_type(g_, x) != ValueType::I64 || !loop_invariant(g_, cfg_, loop, x, memo_)) continue;
        if (g_.op(p) != Op::Add || literal_value_type(g_.node(p).literals[0]) != ValueType::Ptr) continue;
        std::optional<Match> inner = match(loop, p, ivs, false);
        if (!inner) continue;
        inner->extra = x;
        return inner;
      }
      if (result_type(g_, p) != ValueType::Ptr || !loop_invariant(g_, cfg_, loop, p, memo_)) continue;
      if (std::optional<Offset> off = offset(x, ivs)) return Match{p, kNone, *off};
    }
    return std::nullopt;
  }

  // The `add "ptr"` nodes that read a counter through at most an extension
  // and a multiplication or shift (step 3's shapes), sorted.
  std::vector<NodeId> candidates(const std::vector<Induction>& ivs) const {
    std::vector<NodeId> out, level;
    for (const Induction& iv : ivs) level.push_back(iv.phi);
    for (int depth = 0; depth < 3 && !level.empty(); ++depth) {
      std::vector<NodeId> next;
      for (NodeId n : level)
        for (NodeId u : g_.users(n)) {
          OpId op = g_.op(u);
          if (op == Op::Add && literal_value_type(g_.node(u).literals[0]) == ValueType::Ptr) {
            out.push_back(u);
            for (NodeId w : g_.users(u))  // the nested form
              if (g_.op(w) == Op::Add && literal_value_type(g_.node(w).literals[0]) == ValueType::Ptr) out.push_back(w);
          }
          else if (op == Op::SExt || op == Op::ZExt || op == Op::Mul || op == Op::Shl) next.push_back(u);
        }
      level = std::move(next);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  std::optional<Compare> normalize(const HeaderTest& test) const {
    const Node& c = g_.node(test.cond);
    if (c.op != Op::SLt && c.op != Op::SLe && c.op != Op::ULt && c.op != Op::ULe) return std::nullopt;
    Compare out{c.inputs[0], c.inputs[1], c.op == Op::SLt || c.op == Op::ULt, c.op == Op::SLt || c.op == Op::SLe,
                *literal_value_type(c.literals[0])};
    if (!test.stays_on_true) {  // !(a < b) is b <= a; !(a <= b) is b < a
      std::swap(out.lhs, out.rhs);
      out.strict = !out.strict;
    }
    return out;
  }

  std::vector<Induction> inductions(const Loop& loop, const std::optional<Compare>& cmp) const {
    std::vector<Induction> out;
    size_t back = 1 - loop.entry_index;
    for (NodeId phi : header_phis(g_, cfg_, loop)) {
      const Node& nd = g_.node(phi);
      if (nd.inputs.size() != 2) continue;
      std::optional<ValueType> t = result_type(g_, phi);
      if (!t || *t == ValueType::Ptr || *t == ValueType::I1) continue;
      NodeId next = nd.inputs[back];
      const Node& add = g_.node(next);
      if (add.op != Op::Add || literal_value_type(add.literals[0]) != *t || add.inputs[0] != phi ||
          !g_.is_const(add.inputs[1]))
        continue;
      Induction iv{phi, next, sign_extend(g_.const_value_of(add.inputs[1]), type_bits(*t)), *t};
      if (iv.step == 0) continue;
      if (cmp && cmp->type == *t) {
        bool nowrap = no_wrap(*cmp, iv);
        (cmp->is_signed ? iv.signed_nowrap : iv.unsigned_nowrap) = nowrap;
      }
      out.push_back(iv);
    }
    return out;
  }

  Wide value_of(NodeId n, const Compare& cmp) const {
    uint64_t v = g_.const_value_of(n);
    unsigned bits = type_bits(cmp.type);
    return cmp.is_signed ? Wide{sign_extend(v, bits)} : Wide{v};
  }

  bool no_wrap(const Compare& cmp, const Induction& iv) const {
    unsigned bits = type_bits(cmp.type);
    Wide max = cmp.is_signed ? (Wide{1} << (bits - 1)) - 1 : (Wide{1} << bits) - 1;
    Wide min = cmp.is_signed ? -(Wide{1} << (bits - 1)) : Wide{0};
    Wide strict = cmp.strict ? 1 : 0;
    if (cmp.lhs == iv.phi && iv.step > 0) {
      Wide hi = g_.is_const(cmp.rhs) ? value_of(cmp.rhs, cmp) - strict : max - strict;
      return hi + iv.step <= max;
    }
    if (cmp.rhs == iv.phi && iv.step < 0) {
      Wide lo = g_.is_const(cmp.lhs) ? value_of(cmp.lhs, cmp) + strict : min + strict;
      return lo + iv.step >= min;
    }
    return false;
  }

  std::optional<Offset> offset(NodeId x, const std::vector<Induction>& ivs) const {
    Offset off;
    const Node* nd = &g_.node(x);
    if ((nd->op == Op::Mul || nd->op == Op::Shl) && literal_value_type(nd->literals[0]) == ValueType::I64 &&
        g_.is_const(nd->inputs[1])) {
      uint64_t c = g_.const_value_of(nd->inputs[1]);
      if (nd->op == Op::Shl && c >= 63) return std::nullopt;
      off.scale_op = nd->op;
      off.scale_const = nd->inputs[1];
      off.scale = nd->op == Op::Mul ? static_cast<int64_t>(c) : int64_t{1} << c;
      x = nd->inputs[0];
      nd = &g_.node(x);
    }
    if ((nd->op == Op::SExt || nd->op == Op::ZExt) && literal_value_type(nd->literals[1]) == ValueType::I64) {
      off.ext = nd->op;
      x = nd->inputs[0];
    }
    for (const Induction& iv : ivs) {
      if (iv.phi != x) continue;
      bool wide = iv.type == ValueType::I64;
      if (off.ext == Op::Const && !wide) return std::nullopt;
      if (off.ext == Op::SExt && (wide || !iv.signed_nowrap)) return std::nullopt;
      if (off.ext == Op::ZExt && (wide || !iv.unsigned_nowrap)) return std::nullopt;
      off.iv = &iv;
      return off;
    }
    return std::nullopt;
  }

  // An offset x64 addressing cannot compute for free (base + index * 1, 2,
  // 4 or 8 over a 64-bit index).
  static bool worth_it(const Offset& off) {
    return off.scale != 1 && off.scale != 2 && off.scale != 4 && off.scale != 8;
  }

  // X(leaf): the offset chain rebuilt over `leaf` instead of the counter.
  NodeId offset_at(const Offset& off, NodeId leaf, Loc loc) {
    NodeId v = leaf;
    if (off.ext != Op::Const) {
      Node e;
      e.op = off.ext;
      e.literals = {Literal::string(value_type_name(off.iv->type)), Literal::string("i64")};
      e.inputs = {v};
      e.loc = loc;
      v = g_.add(std::move(e));
    }
    if (off.scale_op != Op::Const) {
      Node m;
      m.op = off.scale_op;
      m.literals = {Literal::string("i64")};
      m.inputs = {v, off.scale_const};
      m.loc = loc;
      v = g_.add(std::move(m));
    }
    return v;
  }

  NodeId add_ptr(NodeId a, NodeId b, Loc loc) {
    Node n;
    n.op = Op::Add;
    n.literals = {Literal::string("ptr")};
    n.inputs = {a, b};
    n.loc = loc;
    return g_.add(std::move(n));
  }

  // Step 4: address a becomes a new header phi; returns it.
  NodeId rewrite(const Loop& loop, NodeId a, NodeId base, const Offset& off) {
    Loc loc = g_.node(a).loc;
    NodeId init = g_.node(off.iv->phi).inputs[loop.entry_index];
    NodeId start = add_ptr(base, offset_at(off, init, loc), loc);
    Node phi;
    phi.op = Op::Phi;
    phi.control = {cfg_.blocks[loop.header]};
    phi.inputs = {start, start};
    phi.loc = g_.node(off.iv->phi).loc;
    NodeId p = g_.add(std::move(phi));
    uint64_t stride = static_cast<uint64_t>(off.scale) * static_cast<uint64_t>(off.iv->step);
    NodeId next = add_ptr(p, g_.add_const(ValueType::I64, stride, loc), loc);
    g_.set_input(p, 1 - loop.entry_index, next);
    g_.replace_uses(a, p);
    g_.kill_if_unused(a);
    return p;
  }

  // Step 5.
  size_t replace_test(const Loop& loop, const HeaderTest& test, const Compare& cmp,
                      const std::vector<std::pair<NodeId, Offset>>& reduced) {
    if (!cmp.strict || !g_.is_const(cmp.rhs) || g_.users(test.cond).size() != 1) return 0;
    for (const auto& [p, off] : reduced) {
      const Induction& iv = *off.iv;
      if (!test_replaceable(loop, cmp, off) || !g_.used_only_by(iv.phi, {iv.next, test.cond}) ||
          !g_.used_only_by(iv.next, {iv.phi}))
        continue;
      Loc loc = g_.node(test.cond).loc;
      NodeId base = reduced_base(p, loop);
      NodeId end = add_ptr(base, offset_at(off, cmp.rhs, loc), loc);
      Node c;
      c.op = test.stays_on_true ? Op::Ne : Op::Eq;
      c.literals = {Literal::string("ptr")};
      c.inputs = {p, end};
      c.loc = loc;
      NodeId cond = g_.add(std::move(c));
      NodeId old = test.cond;
      g_.set_input(test.branch, 0, cond);
      g_.kill_if_unused(old);
      return 1;
    }
    return 0;
  }

  // The conditions of step 5 but the counter's users.
  bool test_replaceable(const Loop& loop, const Compare& cmp, const Offset& off) const {
    const Induction& iv = *off.iv;
    if (!cmp.strict || !g_.is_const(cmp.rhs) || cmp.lhs != iv.phi || iv.step <= 0 || cmp.type != iv.type)
      return false;
    NodeId init = g_.node(iv.phi).inputs[loop.entry_index];
    if (!g_.is_const(init)) return false;
    Wide i0 = value_of(init, cmp), n = value_of(cmp.rhs, cmp);
    if (i0 > n || (n - i0) % iv.step != 0) return false;
    Wide span = (off.scale < 0 ? -Wide{off.scale} : Wide{off.scale}) * (n - i0);
    return span < (Wide{1} << 62);
  }

  // The B of a reduced phi p: its entry input is `add "ptr" B, X(init)`.
  NodeId reduced_base(NodeId p, const Loop& loop) const {
    return g_.node(g_.node(p).inputs[loop.entry_index]).inputs[0];
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
  LoopForest forest_;
  InvariantMemo memo_;
  bool memset_ok_;
};

}  // namespace

size_t iv_reduce(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!has_loop_carried_phi(fn)) return 0;
  Graph g(fn, cache);
  size_t changes = IvReduce(g, memset_idiom_possible(fn, header)).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
