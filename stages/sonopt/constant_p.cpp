// constant_p.cpp - the late answer to __builtin_constant_p: every
// `constant_p` still open after inlining becomes 1 when its operand folds
// to a constant, else 0 (gcc's semantics: its fold-all-builtins pass
// answers what inlining and constant propagation did not make constant
// with 0, late; LLVM's is.constant intrinsic, lowered to false by
// LowerConstantIntrinsics before code generation).
//
// Why late: `inline int f(int x) { return __builtin_constant_p(x); }`
// answers 0 in f's own body, but 1 in a copy inlined with x = 1. So
// idealize answers only 1 (an operand that is a const or fconst), and this
// module pass, scheduled after inline, answers the rest once inline has
// made its copies. It runs in the first module round, right after inline's
// first application (which reaches every site the size rules allow,
// callees first): a copy inline makes in a later round has been answered
// already (0, as gcc's answer for a function it inlines late can be).
//
// Algorithm: for each constant_p node, evaluate its operand's expression
// tree: a const or fconst is its value; a pure node (common/ir/eval.h's
// integer families but division, the floating-point opcodes) whose inputs
// all evaluate is eval_pure's / eval_float_pure's result; anything else
// (a phi, a load, a param, a symaddr: gcc answers 0 for &global) or a tree
// deeper than kMaxDepth does not evaluate. The node becomes the const 1
// (i32, its type literal) when the tree evaluates, else the const 0; the
// operand then dies (dce) unless something else reads it. The folding is
// the same as idealize's, so it answers what idealize would after the
// inlined arguments reach their users.
//
// At -O1 nothing inlines, and it answers every one in the first module
// round (its schedule's only module pass: sonopt then reads the whole
// module at -O1 too). At -O0 c2ast answers 0 itself.
//
// Invariants needed: the son contract. Kept: the son contract; no
// constant_p is left in the module (son-lower-x64 and pipe-run answer 0 to
// one, at -O0 and -O1).
#include <optional>

#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr int kMaxDepth = 32;

std::optional<uint64_t> evaluate(const Graph& g, NodeId n, int depth) {
  if (std::optional<uint64_t> c = g.constant_value(n)) return c;
  if (depth >= kMaxDepth) return std::nullopt;
  const Node& nd = g.node(n);
  bool is_float = is_float_op(nd.op);
  EvalClass cls = eval_class(nd.op);
  if (!is_float && (cls == EvalClass::None || cls == EvalClass::Divide)) return std::nullopt;
  if (!nd.control.empty() || nd.inputs.size() > 3) return std::nullopt;
  uint64_t args[3];
  for (size_t i = 0; i < nd.inputs.size(); ++i) {
    std::optional<uint64_t> v = evaluate(g, nd.inputs[i], depth + 1);
    if (!v) return std::nullopt;
    args[i] = *v;
  }
  std::span<const Literal> lits{nd.literals.begin(), nd.literals.size()};
  std::span<const uint64_t> in{args, nd.inputs.size()};
  return is_float ? eval_float_pure(nd.op, lits, in, nullptr) : eval_pure(nd.op, lits, in, nullptr);
}

size_t answer(Graph& g) {
  size_t changes = 0;
  NodeId end = g.size();
  for (NodeId n = 0; n < end; ++n) {
    if (!g.alive(n) || g.op(n) != Op::ConstantP) continue;
    const Node& nd = g.node(n);
    std::optional<ValueType> t = literal_value_type(nd.literals[0]);
    if (!t) continue;
    bool known = evaluate(g, nd.inputs[0], 0).has_value();
    g.replace_uses(n, g.add_const(*t, known ? 1 : 0, nd.loc));
    g.kill(n);
    ++changes;
  }
  return changes;
}

bool has_constant_p(const Function& fn) {
  for (const Node& n : fn.nodes)
    if (n.op == Op::ConstantP) return true;
  return false;
}

}  // namespace

size_t constant_p(std::vector<Function>& fns, ModuleHeader&, ModuleScope& scope) {
  size_t changes = 0;
  for (size_t f = 0; f < fns.size(); ++f) {
    if (!has_constant_p(fns[f])) continue;
    Graph g(fns[f], scope.cache(f));
    size_t c = answer(g);
    g.finish();
    if (c) scope.mark_changed(f);
    changes += c;
  }
  return changes;
}

}  // namespace pl::sonopt
