// loop_idiom.cpp - a loop that only stores one byte value over consecutive
// addresses becomes one call to the C library's memset (LLVM's
// LoopIdiomRecognize; gcc's -ftree-loop-distribute-patterns, on at -O2).
//
// The shape, for a simple loop (loops.h) made of the header and a straight
// body chain (body_chain): the header's phis are a counter i and the memory
// state M; i steps by 1 (back input `add i, 1`, read by nothing else); the
// exit test stays in the loop while `i < n` or `i <= n` (slt, sle, ult,
// ule; n loop-invariant, and for `<=` a constant below the type's maximum,
// or the loop never ends); the only effect of the body is one non-volatile
// `store` of type t reading M, at address `B + X` with B loop-invariant and
// X the counter widened to 64 bits (itself when 64 bits wide, else sext for
// a signed test, zext for an unsigned one) times t's size (1, or a shl or
// mul by the size); the stored value is a constant whose bytes are all the
// same (0 and -1 of any type, any i8). Nothing else in the loop may touch
// memory or trap.
//
// Rewrite: the store becomes `memset(addr, byte, count)` with addr the
// store's own address (the first iteration's, since i is then the entry
// value), count = (ext(n) - ext(i) [+ 1 for <=]) * size in 64 bits, and
// the counter's back input becomes its final value (n, or n + 1 for <=):
// the body runs once, the test then leaves, and every use after the loop
// sees the value the original left. The body runs only when the test held
// at entry, so count > 0 (a test that fails at once still runs nothing).
// Why exact: the test bounds i to [i0, n) (or [i0, n]) without wrapping, so
// ext(i) grows by 1 per trip and the stores cover [addr, addr + count)
// exactly once each, in increasing order, with nothing reading memory in
// between; memset writes the same bytes. Loops of a constant trip count
// under kMinBytes bytes stay (unroll's, cheaper than a call).
//
// The body chain may start with the proj of the header's `if` that a region
// of one control input lists directly (body_chain's through_projs): the raw
// graph of ssa2son, before simplify-cfg merges them, which is what the
// serial order gives loop-idiom in round 1. And the function passes that
// would rewrite such a loop first (iv-reduce makes the counter a pointer,
// unroll and unroll-partial copy the body) leave it alone
// (memset_idiom_loop, loops.h): sonopt's early rounds run them on each
// function as it arrives, before any module pass.
//
// A module pass because it may have to declare memset: the module gets
// `extern function memset(ptr, i32, i64) -> ptr` when it has no such
// extern; a module that defines a function or data item named memset, or
// declares it with another signature or `nobuiltin` (-fno-builtin-memset),
// is left alone; so is a function marked `nobuiltin` (-fno-builtin,
// -ffreestanding: LLVM's no-builtins; gcc still emits memset there, but a
// freestanding program may have none to call).
// Invariants needed: the son contract. Kept: the son contract (the call
// hangs off the store's block and takes its place in the memory chain).
#include <map>

#include "loops.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr char kMemset[] = "memset";
constexpr uint64_t kMinBytes = 64;

Signature memset_signature() {
  Signature s;
  s.params = {"ptr", "i32", "i64"};
  s.result = "ptr";
  return s;
}

// Whether memset may be called: nothing of the module is named so, or an
// extern of the expected signature is (or of none).
bool memset_usable(const std::vector<Function>& fns, const ModuleHeader& header) {
  for (const Function& f : fns)
    if (f.name == kMemset) return false;
  for (const DataItem& d : header.data)
    if (d.name == kMemset) return false;
  for (const Extern& e : header.externs)
    if (e.name == kMemset)
      return e.kind == ExternKind::Function && !e.attrs.has(kHintNobuiltin) &&
             (!e.signature || *e.signature == memset_signature());
  return true;
}

// Whether memset may be called as far as one function and the header tell
// (a function pass sees no other function).
bool memset_callable(const Function& fn, const ModuleHeader& header) {
  if (fn.attrs.has(kHintNobuiltin) || fn.name == kMemset) return false;
  std::vector<Function> none;
  return memset_usable(none, header);
}

// The shape of the header comment, found in a loop (rewrite() or, for the
// function passes that would change it first, memset_idiom_loop()).
class Matcher {
 public:
  Matcher(const Graph& g, const SonCfg& cfg) : g_(g), cfg_(cfg) {}

  struct Counter {
    NodeId phi = kNone, step = kNone, bound = kNone;
    bool inclusive = false, is_signed = true;
    ValueType type = ValueType::I64;
  };

  std::optional<ValueType> type_of(const Node& n) const {
    return n.literals.empty() ? std::nullopt : literal_value_type(n.literals[0]);
  }

  bool invariant(const Loop& loop, NodeId n) { return loop_invariant(g_, cfg_, loop, n, memo_); }

  // The counter and its bound, from the exit test.
  std::optional<Counter> counter(const Loop& loop, const HeaderTest& test, const std::vector<NodeId>& phis) {
    if (!test.stays_on_true) return std::nullopt;
    const Node& c = g_.node(test.cond);
    Counter k;
    switch (c.op) {
      case Op::SLt: break;
      case Op::SLe: k.inclusive = true; break;
      case Op::ULt: k.is_signed = false; break;
      case Op::ULe: k.is_signed = false, k.inclusive = true; break;
      default: return std::nullopt;
    }
    k.phi = c.inputs[0];
    k.bound = c.inputs[1];
    if (!std::binary_search(phis.begin(), phis.end(), k.phi) || !invariant(loop, k.bound)) return std::nullopt;
    std::optional<ValueType> t = type_of(c);
    if (!t || *t == ValueType::I1) return std::nullopt;
    k.type = *t;
    const size_t back = 1 - loop.entry_index;
    k.step = g_.node(k.phi).inputs[back];
    const Node& step = g_.node(k.step);
    if (step.op != Op::Add || step.inputs[0] != k.phi || !g_.is_const(step.inputs[1]) ||
        g_.const_value_of(step.inputs[1]) != 1 || g_.users(k.step).size() != 1)
      return std::nullopt;
    if (k.inclusive) {
      if (!g_.is_const(k.bound)) return std::nullopt;
      unsigned bits = type_bits(k.type);
      uint64_t max = k.is_signed ? width_mask(bits) >> 1 : width_mask(bits);
      if (g_.const_value_of(k.bound) == max) return std::nullopt;
    }
    return k;
  }

  // X is the counter widened to 64 bits, times `size`.
  bool scaled_counter(NodeId x, const Counter& k, uint64_t size) const {
    const Node& n = g_.node(x);
    if (size > 1) {
      if (n.inputs.size() != 2 || !g_.is_const(n.inputs[1])) return false;
      uint64_t c = g_.const_value_of(n.inputs[1]);
      bool ok = (n.op == Op::Mul && c == size) || (n.op == Op::Shl && c < 64 && (uint64_t{1} << c) == size);
      return ok && widened_counter(n.inputs[0], k);
    }
    return widened_counter(x, k);
  }

  bool widened_counter(NodeId x, const Counter& k) const {
    if (k.type == ValueType::I64) return x == k.phi;
    const Node& n = g_.node(x);
    return n.op == (k.is_signed ? Op::SExt : Op::ZExt) && n.inputs[0] == k.phi;
  }

  // A stored constant whose bytes are all equal: that byte.
  std::optional<uint8_t> splat(NodeId v, unsigned bytes) const {
    if (!g_.is_const(v)) return std::nullopt;
    uint64_t c = g_.const_value_of(v);
    uint8_t b = static_cast<uint8_t>(c);
    for (unsigned i = 1; i < bytes; ++i)
      if (static_cast<uint8_t>(c >> (8 * i)) != b) return std::nullopt;
    return b;
  }

  struct Match {
    Counter k;
    NodeId store = kNone;
    uint8_t byte = 0;
    unsigned size = 1;
  };

  // The chain may still hold the projs of the raw graph (body_chain's
  // through_projs): in the serial order loop-idiom runs before simplify-cfg.
  std::optional<Match> match(const Loop& loop) {
    std::vector<uint32_t> chain = body_chain(g_, cfg_, loop, true);
    if (chain.empty()) return std::nullopt;
    memo_.clear();
    std::optional<HeaderTest> test = header_test(g_, cfg_, loop);
    std::vector<NodeId> phis = header_phis(g_, cfg_, loop);
    if (phis.size() != 2) return std::nullopt;
    std::optional<Counter> k = counter(loop, *test, phis);
    if (!k) return std::nullopt;
    NodeId mem_phi = phis[0] == k->phi ? phis[1] : phis[0];
    const size_t back = 1 - loop.entry_index;
    NodeId store = g_.node(mem_phi).inputs[back];
    const Node& s = g_.node(store);
    if (s.op != Op::Store || s.inputs[0] != mem_phi || g_.users(store).size() != 1) return std::nullopt;
    std::vector<NodeId> nodes = loop_nodes(g_, cfg_, loop, chain, 64, true);
    if (nodes.empty()) return std::nullopt;
    for (NodeId n : nodes) {
      const Node& nd = g_.node(n);
      if (n == store || (nd.op == Op::Phi && nd.inputs.size() == 1)) continue;
      if (!nd.control.empty() || !g_.has(n, PURE)) return std::nullopt;  // another effect, load or trap
    }
    std::optional<ValueType> st = type_of(s);
    if (!st || *st == ValueType::I1) return std::nullopt;
    unsigned size = type_bytes(*st);
    std::optional<uint8_t> byte = splat(s.inputs[2], size);
    if (!byte) return std::nullopt;
    const Node& addr = g_.node(s.inputs[1]);
    if (addr.op != Op::Add) return std::nullopt;
    bool left = invariant(loop, addr.inputs[0]) && scaled_counter(addr.inputs[1], *k, size);
    bool right = invariant(loop, addr.inputs[1]) && scaled_counter(addr.inputs[0], *k, size);
    if (!left && !right) return std::nullopt;
    if (std::optional<int> trips = trip_count(g_, cfg_, loop, *test, static_cast<int>(kMinBytes));
        trips && static_cast<uint64_t>(*trips) * size < kMinBytes)
      return std::nullopt;
    return Match{*k, store, *byte, size};
  }

 private:
  const Graph& g_;
  const SonCfg& cfg_;
  InvariantMemo memo_;
};

class Idiom {
 public:
  explicit Idiom(Graph& g) : g_(g), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), forest_(find_loops(g, cfg_)) {}

  size_t run() {
    size_t changes = 0;
    Matcher matcher(g_, cfg_);
    for (const Loop& loop : forest_.loops)
      if (std::optional<Matcher::Match> m = matcher.match(loop)) {
        replace(loop, m->k, m->store, m->byte, m->size);
        ++changes;
      }
    return changes;
  }

 private:
  using Counter = Matcher::Counter;

  NodeId widen(NodeId v, const Counter& k, Loc loc) {
    if (k.type == ValueType::I64) return v;
    return g_.add_node(k.is_signed ? Op::SExt : Op::ZExt,
                       {Literal::string(value_type_name(k.type)), Literal::string("i64")}, {v}, loc);
  }

  void replace(const Loop& loop, const Counter& k, NodeId store, uint8_t byte, unsigned size) {
    const Node s = g_.node(store);
    Loc loc = s.loc;
    const Literal i64 = Literal::string("i64");
    // count = (ext(n) - ext(i) [+ 1]) * size, in 64 bits.
    NodeId end = widen(k.bound, k, loc), first = widen(k.phi, k, loc);  // named: a fixed order of node ids
    NodeId count = g_.add_node(Op::Sub, {i64}, {end, first}, loc);
    if (k.inclusive) count = g_.add_node(Op::Add, {i64}, {count, g_.add_const(ValueType::I64, 1, loc)}, loc);
    if (size > 1) count = g_.add_node(Op::Mul, {i64}, {count, g_.add_const(ValueType::I64, size, loc)}, loc);
    NodeId callee = g_.add_node(Op::SymAddr, {Literal::string(kMemset)}, {}, loc);
    NodeId call = g_.add_node(Op::Call, {Literal::string("ptr")},
                              {s.inputs[0], callee, s.inputs[1], g_.add_const(ValueType::I32, byte, loc), count}, loc,
                              s.control);
    NodeId mem = g_.add_node(Op::Proj, {Literal::integer(0)}, {call}, loc);
    g_.replace_uses(store, mem);
    g_.kill(store);
    // The counter's final value: the body now runs once.
    NodeId final_value = k.bound;
    if (k.inclusive)
      final_value = g_.add_const(k.type, g_.const_value_of(k.bound) + 1, g_.node(k.bound).loc);
    const size_t back = 1 - loop.entry_index;
    NodeId old_step = k.step;
    g_.set_input(k.phi, back, final_value);
    g_.kill_if_unused(old_step);
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
  LoopForest forest_;
};

}  // namespace

bool memset_idiom_loop(const Graph& g, const SonCfg& cfg, const Loop& loop, bool memset_ok) {
  return memset_ok && Matcher(g, cfg).match(loop).has_value();
}

bool memset_idiom_possible(const Function& fn, const ModuleHeader& header) { return memset_callable(fn, header); }

// What it does to a function depends on the function and on whether memset
// may be called: a function unchanged since the last application is skipped
// while that stays so.
size_t loop_idiom(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope) {
  bool usable = memset_usable(fns, header);
  size_t changes = scope.change_each(fns.size(), usable ? 2 : 1, [&](size_t f) -> size_t {
    if (!usable || fns[f].attrs.has(kHintNobuiltin) || !has_loop_carried_phi(fns[f])) return 0;
    Graph g(fns[f], scope.cache(f));
    size_t c = Idiom(g).run();
    g.finish();
    return c;
  });
  bool declared = std::any_of(header.externs.begin(), header.externs.end(),
                              [](const Extern& e) { return e.name == kMemset; });
  if (changes > 0 && !declared) header.externs.push_back(Extern{kMemset, ExternKind::Function, memset_signature()});
  return changes;
}

}  // namespace pl::sonopt
