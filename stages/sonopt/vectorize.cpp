// vectorize.cpp - loop vectorization: an innermost loop over arrays of i32,
// i64, f32 or f64 runs 16 bytes of each array per trip, its loads, stores
// and lane-wise operations become 16-byte vector values (FORMAT.md section
// 7, "16-byte vector values": v128.load, v128.apply, v128.splat,
// v128.store), two or four iterations per instruction.
//
// Cost model: gcc 12's "very cheap" one, which gcc runs at -O2: a loop is
// vectorized only when that needs no scalar epilogue (its trip count is a
// constant multiple of the lane count) and no run-time alias check (every
// pair of accesses that may touch one object is provably distinct or the
// same address), so the vector loop is the whole loop and is never slower.
// LLVM's LoopVectorize and gcc's tree-vect-loop do the same transformation
// (a loop's body widened by the vectorization factor VF, "inner-loop
// vectorization"); on the sea of nodes it is done in place, as
// unroll-partial unrolls: the body's nodes are replaced by vector nodes and
// each induction variable steps VF times as far.
//
// Algorithm, for each simple innermost loop (loops.h) made of the header
// (phis and the exit test only) and a straight body chain (body_chain),
// except one loop-idiom will make a memset call (memset_idiom_loop, as
// iv-reduce and unroll leave it: gcc -O2 makes that loop a memset too):
//  1. Header phis: the memory state (at most one), induction variables
//     (scev.h: an evolution {start, +, c} with a constant step c) and
//     integer sums (a phi r whose back input is `add r, x`, r read by
//     nothing else in the loop; its uses after the loop see the sum);
//     anything else (a float accumulation among them: reassociating a
//     float sum changes its rounding, so it is never vectorized) leaves
//     the loop alone.
//  2. Trip count T (scev.h constant_trip_count): a constant, T >= 2 VF
//     and T a multiple of VF, where VF = 16 / the lane size (4 for i32 and
//     f32, 2 for i64 and f64). The exit test may read induction variables
//     only (it is asked at trips 0, VF, 2 VF, ..., T, where it answers as
//     it did there before).
//  3. The body's nodes (loops.h loop_nodes), in dependency order:
//     - a `load` of i32/i64/f32/f64 whose address evolves by exactly its
//       size per trip (unit stride) is a vector; a `store` of such a type
//       at a unit-stride address stores one (its value a vector or a
//       loop-invariant scalar, splatted);
//     - a pure operation with a vector operand is a vector when it has a
//       one-instruction SSE/SSE2 form of its type (kLaneOps: add, sub,
//       and, or, xor, shifts by a constant for i32/i64; fadd, fsub, fmul,
//       fdiv, fsqrt, fneg, fabs for f32/f64) and its other operands are
//       vectors or loop-invariant (splatted once, before the loop: a pure
//       node floats there), else the loop stays; an i32 compare (eq, ne,
//       slt, sle) read only as the condition of selects of i32 is a mask
//       (pcmpeqd, pcmpgtd), and such a select a blend (pand, pandn, por):
//       min and max (`a < b ? a : b` once if-convert made it a select);
//     - every vector has the same lane size; a vector read by anything
//       else (a compare, a conversion, a call, a phi, a value after the
//       loop) or a pinned node other than the loads and stores (a call, a
//       volatile access, a division that may trap) leaves the loop alone.
//  4. Dependences: for each store S and each other access X, either their
//     objects are provably distinct (alias.h distinct_objects: two stack
//     slots or symbols) or X reads or writes the very address node S
//     writes (distance 0: lane k of X and of S belong to one iteration,
//     in the body's order). Anything else (a possible overlap at another
//     distance, an unknown pointer) leaves the loop alone.
//  5. Rewrite: each induction variable's back input becomes `phi + VF c`;
//     loads, operations and stores become v128.load, v128.apply and
//     v128.store at the same places (the stores keep their order on the
//     memory chain); a sum's phi becomes a vector phi from a splat of 0,
//     and after the loop its lanes are added (pshufd and padd, then lane
//     0) to the scalar start, which every use outside the loop reads.
// Why it is exact: lane k of trip j computes what iteration j VF + k
// computed (the loads read the same addresses; the stores write them in
// the same order, since accesses of one iteration that may overlap are at
// distance 0 and the others are to other objects); the exit test sees the
// induction variables' values it saw at trips 0, VF, ..., T. Integer
// addition is associative and commutative modulo 2^w, so the lanes' sum
// equals the sequential one bit for bit; no float operation changes order.
// Departures: no scalar epilogue and no run-time overlap check (the "very
// cheap" model; LLVM's and gcc -O3's loops with a remainder or unknown
// pointers stay scalar here); no conversions, no float compares, no
// unsigned or 64-bit compares (SSE2 has none), no 32-bit multiply.
// Invariants needed: the son contract; scev.h's analysis of the loop.
// Kept: the son contract (new pinned nodes hang off the control of the
// nodes they replace; new floating nodes read values defined before them);
// every pinned node of the body runs T / VF times, touching the memory
// the scalar one touched in T trips, in the same order per address.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "alias.h"
#include "ir/eval_v128.h"
#include "loops.h"
#include "passes.h"
#include "scev.h"

namespace pl::sonopt {

namespace {

constexpr size_t kMaxNodes = 256;    // loop nodes looked at
constexpr int kMaxTrips = 1 << 20;   // trip counts by evaluation, at most

// The SSE/SSE2 instruction computing a lane-wise pure operation (FORMAT.md
// section 7, v128.op's table), or "" when there is none.
struct LaneOp {
  OpId op;
  ValueType type;
  const char* sse;
};
constexpr LaneOp kLaneOps[] = {
    {Op::Add, ValueType::I32, "paddd"},   {Op::Sub, ValueType::I32, "psubd"},   {Op::And, ValueType::I32, "pand"},
    {Op::Or, ValueType::I32, "por"},      {Op::Xor, ValueType::I32, "pxor"},    {Op::Add, ValueType::I64, "paddq"},
    {Op::Sub, ValueType::I64, "psubq"},   {Op::And, ValueType::I64, "pand"},    {Op::Or, ValueType::I64, "por"},
    {Op::Xor, ValueType::I64, "pxor"},    {Op::FAdd, ValueType::F32, "addps"},  {Op::FSub, ValueType::F32, "subps"},
    {Op::FMul, ValueType::F32, "mulps"},  {Op::FDiv, ValueType::F32, "divps"},  {Op::FAdd, ValueType::F64, "addpd"},
    {Op::FSub, ValueType::F64, "subpd"},  {Op::FMul, ValueType::F64, "mulpd"},  {Op::FDiv, ValueType::F64, "divpd"},
    {Op::FSqrt, ValueType::F32, "sqrtps"}, {Op::FSqrt, ValueType::F64, "sqrtpd"},
    // shifts by a constant count below the lane's width (imm: the count)
    {Op::Shl, ValueType::I32, "pslldi"},  {Op::LShr, ValueType::I32, "psrldi"}, {Op::AShr, ValueType::I32, "psradi"},
    {Op::Shl, ValueType::I64, "psllqi"},  {Op::LShr, ValueType::I64, "psrlqi"},
    // the sign bit flipped or cleared: xor / and-not with a splat of -0.0
    {Op::FNeg, ValueType::F32, "xorps"},  {Op::FNeg, ValueType::F64, "xorpd"},
    {Op::FAbs, ValueType::F32, "andnps"}, {Op::FAbs, ValueType::F64, "andnpd"},
};

const char* lane_op(OpId op, ValueType t) {
  for (const LaneOp& l : kLaneOps)
    if (l.op == op && l.type == t) return l.sse;
  return nullptr;
}

bool is_shift(OpId op) { return op == Op::Shl || op == Op::LShr || op == Op::AShr; }

// Compares of i32 lanes SSE2 has (pcmpeqd, pcmpgtd; ne and sle as the
// negation of eq and of the swapped slt, which the select takes by swapping
// its two values).
bool is_lane_compare(OpId op) { return op == Op::Eq || op == Op::Ne || op == Op::SLt || op == Op::SLe; }

std::optional<ValueType> lane_type(const Node& n) {
  return n.literals.empty() ? std::nullopt : v128_lane_type(n.literals[0]);
}

class Vectorizer {
 public:
  // `memset_ok`: memset_idiom_possible (loop_idiom.cpp): a loop loop-idiom
  // will make a memset call is left to it, as iv-reduce and unroll leave it.
  Vectorizer(Graph& g, bool memset_ok)
      : g_(g), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), forest_(find_loops(g, cfg_)), aa_(g), memset_ok_(memset_ok) {}

  // The scalar nodes replaced (their debug bindings are lost).
  const std::vector<NodeId>& replaced() const { return replaced_; }

  size_t run() {
    size_t changes = 0;
    for (const Loop& loop : forest_.loops)
      if (innermost(loop) && !memset_idiom_loop(g_, cfg_, loop, memset_ok_) && vectorize(loop)) ++changes;
    return changes;
  }

 private:
  enum class Kind : uint8_t { Scalar, Vector };

  struct Plan {
    NodeId mem_phi = kNone;
    struct Iv {
      NodeId phi;
      uint64_t step;
      ValueType type;
    };
    std::vector<Iv> ivs;
    std::vector<NodeId> sums;                       // integer sum phis
    std::vector<NodeId> order;                      // the vector nodes, in dependency order
    std::vector<NodeId> loads, stores;
    unsigned lane_bytes = 0;
  };

  bool innermost(const Loop& loop) const {
    for (const Loop& other : forest_.loops)
      if (other.header != loop.header && loop.contains(other.header)) return false;
    return true;
  }
  bool invariant(const Loop& loop, NodeId n) { return loop_invariant(g_, cfg_, loop, n, memo_); }

  // A phi is the memory state when a memory operation reads it or its back
  // input makes memory.
  bool memory_phi(NodeId phi, size_t back) const {
    for (NodeId u : g_.users(phi))
      if (g_.has(u, MEMORY) && !g_.node(u).inputs.empty() && g_.node(u).inputs[0] == phi) return true;
    NodeId b = g_.node(phi).inputs[back];
    OpId op = g_.op(b);
    return op == Op::Store || op == Op::Proj || (op < kNumOps && op_info(op).results == "m");
  }

  // A unit-stride address: its evolution is {a, +, size}.
  bool unit_stride(Scev& sc, NodeId addr, unsigned size) {
    std::optional<Chrec> ch = sc.evolution(addr);
    if (!ch || ch->order != 1 || ch->self) return false;
    std::optional<uint64_t> step = sc.constant(ch->c[1]);
    return step && *step == size;
  }

  bool vectorize(const Loop& loop) {
    std::vector<uint32_t> chain = body_chain(g_, cfg_, loop);
    if (chain.empty()) return false;
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    if (!test) return false;
    memo_.clear();
    const size_t back = 1 - loop.entry_index;
    std::vector<NodeId> phis = header_phis(g_, cfg_, loop);
    std::vector<NodeId> nodes = loop_nodes(g_, cfg_, loop, chain, kMaxNodes);
    if (nodes.empty()) return false;
    std::vector<uint8_t> in_loop(g_.size(), 0);
    for (NodeId n : nodes) in_loop[n] = 1;
    for (NodeId p : phis) in_loop[p] = 1;
    // Quick rejection: a loop with no load or store of a lane type.
    bool any = false;
    for (NodeId n : nodes)
      if ((g_.op(n) == Op::Load || g_.op(n) == Op::Store) && lane_type(g_.node(n))) any = true;
    if (!any) return false;

    Scev sc(g_, cfg_, loop, memo_);
    // The count first: it proves the test's recurrence does not wrap, which
    // the evolutions of its sign or zero extensions (the addresses) need.
    if (!sc.trip_count(*test)) return false;
    Plan plan;
    std::vector<Kind> kind(g_.size(), Kind::Scalar);
    // 1. Header phis.
    for (NodeId phi : phis) {
      const Node& p = g_.node(phi);
      if (p.inputs.size() != 2) return false;
      if (memory_phi(phi, back)) {
        if (plan.mem_phi != kNone) return false;
        plan.mem_phi = phi;
        continue;
      }
      std::optional<Chrec> ch = sc.evolution(phi);
      if (ch && ch->order == 1 && !ch->self) {
        if (std::optional<uint64_t> step = sc.constant(ch->c[1])) {
          plan.ivs.push_back({phi, *step, ch->type});
          continue;
        }
      }
      // An integer sum: back input `add r, x`, r read by nothing else in the loop.
      NodeId b = p.inputs[back];
      const Node& bn = g_.node(b);
      if (bn.op == Op::Add && (bn.inputs[0] == phi || bn.inputs[1] == phi) && lane_type(bn) &&
          !is_float(*lane_type(bn))) {
        bool alone = true;
        for (NodeId u : g_.users(phi))
          if (u != b && in_loop[u] && u != phi) alone = false;
        for (NodeId u : g_.users(b))
          if (u != phi) alone = false;
        if (alone) {
          plan.sums.push_back(phi);
          continue;
        }
      }
      return false;  // anything else, a float accumulation among them
    }
    // 3. The body's nodes.
    auto is_sum_phi = [&](NodeId n) { return std::find(plan.sums.begin(), plan.sums.end(), n) != plan.sums.end(); };
    auto set_lanes = [&](ValueType t) {
      unsigned b = type_bytes(t);
      if (plan.lane_bytes != 0 && plan.lane_bytes != b) return false;
      plan.lane_bytes = b;
      return true;
    };
    for (NodeId n : nodes) {
      const Node& nd = g_.node(n);
      if (nd.op == Op::Load) {
        std::optional<ValueType> t = lane_type(nd);
        if (t && unit_stride(sc, nd.inputs[1], type_bytes(*t))) {
          if (!set_lanes(*t)) return false;
          kind[n] = Kind::Vector;
          plan.order.push_back(n);
          plan.loads.push_back(n);
          continue;
        }
        return false;  // a load we cannot widen: another stride, a gather
      }
      if (nd.op == Op::Store) {
        std::optional<ValueType> t = lane_type(nd);
        if (!t || !unit_stride(sc, nd.inputs[1], type_bytes(*t)) || !set_lanes(*t)) return false;
        NodeId v = nd.inputs[2];
        if (kind[v] != Kind::Vector && !invariant(loop, v)) return false;
        if (kind[nd.inputs[1]] == Kind::Vector) return false;
        plan.order.push_back(n);
        plan.stores.push_back(n);
        continue;
      }
      bool reads_vector = false;
      for (NodeId in : nd.inputs)
        if (kind[in] == Kind::Vector || is_sum_phi(in)) reads_vector = true;
      if (!nd.control.empty()) {
        // Pinned: control flow of the chain only (a jump); calls, volatile
        // accesses, divisions and other effects leave the loop alone.
        if (nd.op == Op::Jump || nd.op == Op::Region || nd.op == Op::If || nd.op == Op::Proj) continue;
        return false;
      }
      if (!reads_vector) continue;  // scalar: addresses, the steps, the test
      if (nd.op == Op::Add && is_sum_phi(nd.inputs[0]) != is_sum_phi(nd.inputs[1])) {
        // a sum's step: `add r, x` with x a vector
        NodeId x = is_sum_phi(nd.inputs[0]) ? nd.inputs[1] : nd.inputs[0];
        std::optional<ValueType> t = lane_type(nd);
        if (!t || kind[x] != Kind::Vector || !set_lanes(*t)) return false;
        kind[n] = Kind::Vector;
        plan.order.push_back(n);
        continue;
      }
      auto vector_or_invariant = [&](NodeId in) {
        return !is_sum_phi(in) && (kind[in] == Kind::Vector || invariant(loop, in));
      };
      if (is_lane_compare(nd.op)) {
        // A compare of i32 lanes read only as selects' conditions: a mask.
        std::optional<ValueType> t = lane_type(nd);
        if (!t || *t != ValueType::I32 || !set_lanes(*t)) return false;
        for (NodeId u : g_.users(n)) {
          const Node& un = g_.node(u);
          if (un.op != Op::Select || un.inputs[0] != n || un.inputs[1] == n || un.inputs[2] == n) return false;
        }
        if (!vector_or_invariant(nd.inputs[0]) || !vector_or_invariant(nd.inputs[1])) return false;
        kind[n] = Kind::Vector;
        plan.order.push_back(n);
        continue;
      }
      if (nd.op == Op::Select) {
        // select of i32 lanes on a mask: a blend (min and max among them).
        std::optional<ValueType> t = lane_type(nd);
        if (!t || *t != ValueType::I32 || !set_lanes(*t)) return false;
        if (kind[nd.inputs[0]] != Kind::Vector || !is_lane_compare(g_.op(nd.inputs[0]))) return false;
        if (!vector_or_invariant(nd.inputs[1]) || !vector_or_invariant(nd.inputs[2])) return false;
        kind[n] = Kind::Vector;
        plan.order.push_back(n);
        continue;
      }
      std::optional<ValueType> t = lane_type(nd);
      if (!t || !lane_op(nd.op, *t) || !set_lanes(*t)) return false;
      for (size_t i = 0; i < nd.inputs.size(); ++i) {
        NodeId in = nd.inputs[i];
        if (is_sum_phi(in)) return false;
        if (kind[in] == Kind::Vector) continue;
        if (is_shift(nd.op) && i == 1) {
          if (!g_.is_const(in) || g_.const_value_of(in) >= type_bits(*t)) return false;
          if (nd.op == Op::AShr && *t == ValueType::I64) return false;  // no psraq in SSE2
          continue;
        }
        if (is_shift(nd.op) || !invariant(loop, in)) return false;
      }
      if (is_shift(nd.op) && kind[nd.inputs[0]] != Kind::Vector) return false;
      kind[n] = Kind::Vector;
      plan.order.push_back(n);
    }
    if (plan.lane_bytes == 0) return false;
    const uint64_t vf = 16 / plan.lane_bytes;
    // Vectors are read only by vector nodes and stores (the sums' back
    // inputs by their phis).
    for (NodeId n : plan.order) {
      if (g_.op(n) == Op::Store) continue;
      for (NodeId u : g_.users(n)) {
        if (kind[u] == Kind::Vector || (g_.op(u) == Op::Store && g_.node(u).inputs[2] == n)) continue;
        if (is_sum_phi(u) && g_.node(u).inputs[back] == n) continue;
        return false;
      }
    }
    for (NodeId s : plan.sums) {
      NodeId b = g_.node(s).inputs[back];
      if (kind[b] != Kind::Vector) return false;
    }
    // The exit test reads induction variables and invariants only.
    {
      const Node& c = g_.node(test->cond);
      for (NodeId in : c.inputs) {
        if (invariant(loop, in)) continue;
        std::optional<Chrec> ch = sc.evolution(in);
        if (!ch || ch->order != 1) return false;
      }
      for (NodeId s : plan.sums)
        for (NodeId in : c.inputs)
          if (in == s) return false;
    }
    // Memory: the stores form the loop's one memory chain, and every load
    // reads the memory phi or one of them.
    if (!plan.stores.empty() && plan.mem_phi == kNone) return false;
    for (NodeId n : nodes) {
      if (!g_.has(n, MEMORY)) continue;
      if (g_.op(n) != Op::Load && g_.op(n) != Op::Store) return false;
    }
    // 2. The trip count.
    std::optional<int> trips = constant_trip_count(g_, cfg_, loop, *test, memo_, kMaxTrips);
    if (!trips || static_cast<uint64_t>(*trips) < 2 * vf || static_cast<uint64_t>(*trips) % vf != 0) return false;
    // 4. Dependences.
    // An address's object: through ptr adds (alias.h) and through the
    // header phis of pointer induction variables to their start (a pointer
    // stepping through an array stays in it, as C's arithmetic does).
    auto object_of = [&](NodeId a) {
      for (int steps = 0; steps < 16; ++steps) {
        NodeId o = aa_.underlying_object(a);
        if (o != kNone) return o;
        const Node& an = g_.node(a);
        if (an.op == Op::Phi && std::binary_search(phis.begin(), phis.end(), a)) {
          a = an.inputs[loop.entry_index];
        } else if (an.op == Op::Add && an.inputs.size() == 2 && literal_value_type(an.literals[0]) == ValueType::Ptr) {
          a = result_type(g_, an.inputs[1]) == ValueType::Ptr ? an.inputs[1] : an.inputs[0];
        } else {
          return kNone;
        }
      }
      return kNone;
    };
    // Two addresses that step through the same sequence (one node, or
    // equal evolutions: two pointer induction variables from one start).
    auto same_sequence = [&](NodeId a, NodeId b) {
      if (a == b) return true;
      std::optional<Chrec> ca = sc.evolution(a), cb = sc.evolution(b);
      if (!ca || !cb || ca->order != 1 || cb->order != 1 || ca->self || cb->self || ca->c[0] != cb->c[0]) return false;
      std::optional<uint64_t> sa_step = sc.constant(ca->c[1]), sb_step = sc.constant(cb->c[1]);
      return sa_step && sb_step && *sa_step == *sb_step;
    };
    for (NodeId s : plan.stores) {
      NodeId sa = g_.node(s).inputs[1];
      NodeId so = object_of(sa);
      auto ok = [&](NodeId x) {
        NodeId xa = g_.node(x).inputs[1];
        if (access_size(g_.node(x)) == access_size(g_.node(s)) && same_sequence(sa, xa)) return true;
        NodeId xo = object_of(xa);
        return so != kNone && xo != kNone && aa_.distinct_objects(so, xo);
      };
      for (NodeId l : plan.loads)
        if (!ok(l)) return false;
      for (NodeId t : plan.stores)
        if (t != s && !ok(t)) return false;
    }
    rewrite(loop, plan, back, vf);
    return true;
  }

  // A splat of loop-invariant scalar x of type t (one per x).
  NodeId splat(NodeId x, ValueType t, Loc loc) {
    auto it = splats_.find(x);
    if (it != splats_.end()) return it->second;
    NodeId s = g_.add_node(Op::V128Splat, {Literal::string(value_type_name(t))}, {x}, loc);
    splats_[x] = s;
    return s;
  }

  NodeId apply(const char* sse, uint64_t imm, NodeId a, NodeId b, Loc loc) {
    return g_.add_node(Op::V128Apply, {Literal::string(sse), Literal::integer(static_cast<int64_t>(imm))}, {a, b}, loc);
  }

  // The sum of a vector's lanes of type t, as a scalar t.
  NodeId horizontal_sum(NodeId v, ValueType t, Loc loc) {
    bool wide = type_bytes(t) == 8;
    const char* add = wide ? "paddq" : "paddd";
    NodeId x = apply(add, 0, v, apply("pshufd", 0x4E, v, v, loc), loc);  // lanes + the other half's
    if (!wide) x = apply(add, 0, x, apply("pshufd", 0xB1, x, x, loc), loc);  // + the neighbour's
    return g_.add_node(Op::V128Extract, {Literal::string(value_type_name(t)), Literal::integer(0)}, {x}, loc);
  }

  void rewrite(const Loop& loop, const Plan& plan, size_t back, uint64_t vf) {
    splats_.clear();
    negated_.clear();
    // Induction variables step VF times as far.
    for (const Plan::Iv& iv : plan.ivs) {
      ValueType st = iv.type == ValueType::Ptr ? ValueType::I64 : iv.type;
      NodeId old = g_.node(iv.phi).inputs[back];
      Loc loc = g_.node(old).loc;
      NodeId k = g_.add_const(st, truncate_to(iv.step * vf, type_bits(st)), loc);
      NodeId next = g_.add_node(Op::Add, {Literal::string(value_type_name(iv.type))}, {iv.phi, k}, loc);
      g_.set_input(iv.phi, back, next);
      g_.kill_if_unused(old);
      replaced_.push_back(iv.phi);
    }
    // Sums: a vector phi from a splat of 0.
    std::map<NodeId, NodeId> vec;     // scalar vector-kind node -> its vector node
    std::map<NodeId, NodeId> memory;  // old store -> new v128.store
    std::map<NodeId, NodeId> sum_phi; // scalar sum phi -> vector phi
    for (NodeId s : plan.sums) {
      const Node& p = g_.node(s);
      ValueType t = *lane_type(g_.node(p.inputs[back]));
      Loc loc = p.loc;
      NodeId zero = splat(g_.add_const(t, 0, loc), t, loc);
      InputList ins(2, kNone);
      ins[loop.entry_index] = zero;
      ins[back] = zero;  // set below, once the vector step exists
      NodeId vp = g_.add_node(Op::Phi, {}, std::move(ins), loc, {p.control[0]});
      sum_phi[s] = vp;
      vec[s] = vp;
    }
    auto mem = [&](NodeId m) {
      auto it = memory.find(m);
      return it == memory.end() ? m : it->second;
    };
    auto operand = [&](NodeId in, ValueType t, Loc loc) {
      auto it = vec.find(in);
      return it != vec.end() ? it->second : splat(in, t, loc);
    };
    for (NodeId n : plan.order) {
      const Node nd = g_.node(n);  // a copy: add_node may grow the node array
      Loc loc = nd.loc;
      ValueType t = *lane_type(nd);
      replaced_.push_back(n);
      switch (nd.op) {
        case Op::Load:
          vec[n] = g_.add_node(Op::V128Load, {}, {mem(nd.inputs[0]), nd.inputs[1]}, loc, nd.control);
          break;
        case Op::Store:
          memory[n] = g_.add_node(Op::V128Store, {}, {mem(nd.inputs[0]), nd.inputs[1], operand(nd.inputs[2], t, loc)},
                                  loc, nd.control);
          break;
        default: {
          if (nd.op == Op::Add && (sum_phi.count(nd.inputs[0]) || sum_phi.count(nd.inputs[1]))) {
            vec[n] = apply(lane_op(Op::Add, t), 0, vec.at(nd.inputs[0]), vec.at(nd.inputs[1]), loc);
            break;
          }
          if (is_lane_compare(nd.op)) {
            // all ones where the compare holds (or, negated, where it fails)
            NodeId a = operand(nd.inputs[0], t, loc), b = operand(nd.inputs[1], t, loc);
            bool eq = nd.op == Op::Eq || nd.op == Op::Ne;
            bool lt = nd.op == Op::SLt;  // a < b: b > a; a <= b: not a > b
            vec[n] = eq ? apply("pcmpeqd", 0, a, b, loc) : lt ? apply("pcmpgtd", 0, b, a, loc) : apply("pcmpgtd", 0, a, b, loc);
            negated_[n] = nd.op == Op::Ne || nd.op == Op::SLe;
            break;
          }
          if (nd.op == Op::Select) {
            NodeId mask = vec.at(nd.inputs[0]);
            NodeId x = operand(nd.inputs[1], t, loc), y = operand(nd.inputs[2], t, loc);
            if (negated_.at(nd.inputs[0])) std::swap(x, y);
            vec[n] = apply("por", 0, apply("pand", 0, mask, x, loc), apply("pandn", 0, mask, y, loc), loc);
            break;
          }
          const char* sse = lane_op(nd.op, t);
          if (is_shift(nd.op)) {
            vec[n] = apply(sse, g_.const_value_of(nd.inputs[1]), vec.at(nd.inputs[0]), vec.at(nd.inputs[0]), loc);
          } else if (nd.op == Op::FNeg || nd.op == Op::FAbs) {
            // -0.0: only the sign bit set (fneg: x ^ it; fabs: ~it & x)
            NodeId k = g_.add_node(Op::FConst, {Literal::string(value_type_name(t)), Literal::float_bits(uint64_t{1} << 63)},
                                   {}, loc);
            NodeId s = splat(k, t, loc);
            NodeId x = vec.at(nd.inputs[0]);
            vec[n] = nd.op == Op::FNeg ? apply(sse, 0, x, s, loc) : apply(sse, 0, s, x, loc);
          } else if (nd.inputs.size() == 1) {
            NodeId x = vec.at(nd.inputs[0]);
            vec[n] = apply(sse, 0, x, x, loc);
          } else {
            vec[n] = apply(sse, 0, operand(nd.inputs[0], t, loc), operand(nd.inputs[1], t, loc), loc);
          }
        }
      }
    }
    // The stores' users (the next store, the memory phi, after the loop)
    // read the vector stores; then the scalar nodes go.
    for (auto [old, now] : memory) g_.replace_uses(old, now);
    for (auto [s, vp] : sum_phi) {
      NodeId b = g_.node(s).inputs[back];
      g_.set_input(vp, back, vec.at(b));
      // After the loop: the lanes' sum plus the start.
      const Node p = g_.node(s);
      ValueType t = *lane_type(g_.node(b));
      NodeId total = g_.add_node(Op::Add, {Literal::string(value_type_name(t))},
                                 {horizontal_sum(vp, t, p.loc), p.inputs[loop.entry_index]}, p.loc);
      std::vector<NodeId> outside;
      for (NodeId u : g_.users(s))
        if (u != b) outside.push_back(u);
      for (NodeId u : outside)
        for (size_t i = 0; i < g_.node(u).inputs.size(); ++i)
          if (g_.node(u).inputs[i] == s) g_.set_input(u, i, total);
      g_.kill_set({s, b});  // the scalar sum and its step read only each other now
      replaced_.push_back(s);
    }
    for (auto [old, now] : memory) g_.kill(old);
    // In reverse dependency order, so each node's users are gone first (a
    // load is pinned: kill_if_unused leaves it, kill takes it).
    for (auto it = plan.order.rbegin(); it != plan.order.rend(); ++it) {
      if (!g_.alive(*it) || g_.op(*it) == Op::Store || !g_.users(*it).empty()) continue;
      if (g_.op(*it) == Op::Load) {
        NodeId addr = g_.node(*it).inputs[1];
        g_.kill(*it);
        g_.kill_if_unused(addr);
      } else {
        g_.kill_if_unused(*it);
      }
    }
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_ptr_;
  const SonCfg& cfg_;
  LoopForest forest_;
  AliasAnalysis aa_;
  InvariantMemo memo_;
  std::map<NodeId, NodeId> splats_;
  std::map<NodeId, bool> negated_;  // lane compares whose mask is the negation (ne, sle)
  std::vector<NodeId> replaced_;
  bool memset_ok_;
};

}  // namespace

size_t vectorize(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!has_loop_carried_phi(fn)) return 0;
  Graph g(fn, cache);
  Vectorizer v(g, memset_idiom_possible(fn, header));
  size_t changes = v.run();
  if (changes > 0 && !fn.debug.binds.empty()) {
    // A variable bound to a replaced scalar has no one value per iteration now.
    std::vector<char> gone(g.size(), 0);
    for (NodeId n : v.replaced()) gone[n] = 1;
    std::vector<char> hit(fn.debug.vars.size(), 0);
    for (const DebugBind& b : fn.debug.binds)
      if (b.value < gone.size() && gone[b.value] && b.var < hit.size()) hit[b.var] = 1;
    lose_debug_bindings(fn.debug, [&](uint32_t var) { return var < hit.size() && hit[var]; });
  }
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
