// sccp.cpp - sparse conditional constant propagation over values and control
// together.
//
// Algorithm: M. Wegman and F. K. Zadeck, "Constant Propagation with
// Conditional Branches", TOPLAS 1991. Each value node has a lattice cell:
// Top (no value seen yet), a constant (type and value), or Bottom
// (varies); each block (son_cfg.h) is executable or not. Starting with only
// the start block executable, two worklists run to a fixpoint: a block that
// becomes executable evaluates its pinned nodes, phis and terminator; a cell
// that lowers re-evaluates its users. A phi meets only the inputs whose
// region edge comes from an executable block; an `if` on a constant makes
// only its taken side executable; a node pinned in a block that is not
// executable stays Top. Cells only go down (Top > constant > Bottom) and
// blocks only become executable, so it ends, in time linear in the edges.
// Floating-point values are constants too: an fconst's cell holds its
// bits, eval_float_pure evaluates the floating opcodes (exactly what the
// machine computes, so a folded value keeps every bit), the key of a
// constant is its type and bits (0.0 and -0.0 differ).
// Evaluation is common/ir/eval.h's eval_pure (folding is interpreting); an
// evaluation error (a division by zero, INT_MIN / -1, a shift out of range)
// gives Bottom: the node stays and traps or is reported at run time.
// `undefined`, params, loads, calls and memory are Bottom. A constant_p
// (__builtin_constant_p) is 1 once its operand's cell is a constant, and
// Bottom (left for constant_p.cpp's late answer) when it varies.
//
// Then: every value node whose cell is a constant is replaced by a `const`
// (its users read the constant; a pinned division so replaced is removed),
// and dce.cpp's sweep removes the blocks that are not executable (each `if`
// on a constant becomes a jump; regions drop the edges from dead blocks,
// with their phi inputs). simplify-cfg then merges what became straight
// lines.
// Invariants needed: the son contract. Kept: the son contract; every block
// left was executable.
#include <algorithm>
#include <map>

#include "passes.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

struct Cell {
  enum Kind : uint8_t { Top, Const, Bottom } kind = Top;
  ValueType type = ValueType::I64;
  uint64_t value = 0;
  bool operator==(const Cell&) const = default;
};

class Sccp {
 public:
  explicit Sccp(Graph& g) : g_(g), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), cell_(g.size()), exec_(cfg_.blocks.size(), false) {
    // Floating leaves are never reached through a block: set them now (and
    // queue their users, which no block visit reaches either).
    for (NodeId n = 0; n < g_.size(); ++n) {
      if (!g_.alive(n) || !g_.node(n).inputs.empty() || !g_.node(n).control.empty()) continue;
      if (std::optional<uint64_t> v = g_.constant_value(n)) lower(n, Cell{Cell::Const, *g_.constant_type(n), *v});
      else if (g_.op(n) != Op::Start) lower(n, bottom());
    }
  }

  size_t run() {
    if (cfg_.blocks.empty()) return 0;
    mark_block(0);
    do propagate();
    while (unstick());
    return rewrite();
  }

 private:
  void propagate() {
    while (!blocks_.empty() || !nodes_.empty()) {
      while (!blocks_.empty()) {
        uint32_t b = blocks_.back();
        blocks_.pop_back();
        visit_block(b);
      }
      while (!nodes_.empty()) {
        NodeId n = nodes_.back();
        nodes_.pop_back();
        queued_[n] = false;
        evaluate(n);
      }
    }
  }

  // At the fixpoint every value an executable `if` or an executable phi edge
  // reads has left Top (every node is evaluated once its inputs have a cell).
  // Should one be stuck at Top all the same, treating it as Top would be
  // unsound (a branch never taken, a phi input ignored): it becomes Bottom
  // and propagation resumes. Returns whether it had to.
  bool unstick() {
    bool stuck = false;
    for (NodeId n = 0; n < g_.size(); ++n) {
      if (!g_.alive(n) || !in_executable_block(n)) continue;
      const Node& nd = g_.node(n);
      if (nd.op == Op::If && cell_[nd.inputs[0]].kind == Cell::Top) {
        lower(nd.inputs[0], bottom());
        stuck = true;
      }
      if (nd.op != Op::Phi) continue;
      const Node& region = g_.node(nd.control[0]);
      for (size_t i = 0; i < nd.inputs.size() && i < region.control.size(); ++i)
        if (edge_executable(region.control[i]) && cell_[nd.inputs[i]].kind == Cell::Top) {
          lower(nd.inputs[i], bottom());
          stuck = true;
        }
    }
    return stuck;
  }

  void push(NodeId n) {
    if (queued_.size() < g_.size()) queued_.resize(g_.size(), false);
    if (queued_[n]) return;
    queued_[n] = true;
    nodes_.push_back(n);
  }

  void mark_block(uint32_t b) {
    if (exec_[b]) return;
    exec_[b] = true;
    blocks_.push_back(b);
  }

  // A new edge into `region`: it becomes executable and its phis meet again.
  void enter_region(NodeId region) {
    mark_block(cfg_.block_of[region]);
    for (NodeId u : g_.users(region))
      if (g_.op(u) == Op::Phi) push(u);
  }

  void visit_block(uint32_t b) {
    NodeId point = cfg_.blocks[b];
    for (NodeId u : g_.users(point)) {
      if (g_.op(u) == Op::Region) enter_region(u);  // a proj a region lists directly
      else push(u);
    }
  }

  bool in_executable_block(NodeId n) const {
    uint32_t b = cfg_.block_of_node(g_, n);
    return b != DomTree::kNone && exec_[b];
  }

  bool edge_executable(NodeId edge) const {
    uint32_t from = g_.op(edge) == Op::Jump ? cfg_.block_of_node(g_, edge) : cfg_.block_of[edge];
    return from != DomTree::kNone && exec_[from];
  }

  // Cells only go down: Top > a constant > Bottom.
  void lower(NodeId n, Cell c) {
    const Cell& old = cell_[n];
    if (old == c || old.kind == Cell::Bottom || c.kind == Cell::Top) return;
    if (old.kind == Cell::Const && c.kind == Cell::Const) c = bottom();  // two constants meet at Bottom
    cell_[n] = c;
    for (NodeId u : g_.users(n)) push(u);
  }

  static Cell bottom() { return Cell{Cell::Bottom}; }

  void evaluate(NodeId n) {
    const Node& nd = g_.node(n);
    if (!g_.alive(n) || g_.op(n) == Op::Region || g_.op(n) == Op::Start) return;
    if (!nd.control.empty() && !in_executable_block(n)) return;
    switch (nd.op) {
      case Op::Jump:
        for (NodeId u : g_.users(n))
          if (g_.op(u) == Op::Region) enter_region(u);
        return;
      case Op::If: return branch(n);
      case Op::Phi: return lower(n, meet_phi(n));
      case Op::Select: return lower(n, meet_select(n));
      case Op::ConstantP: {  // 1 once the operand is a constant; an unknown one is answered late (constant_p.cpp)
        const Cell& c = cell_[nd.inputs[0]];
        std::optional<ValueType> t = literal_value_type(nd.literals[0]);
        if (c.kind == Cell::Top) return;
        if (c.kind == Cell::Bottom || !t) return lower(n, bottom());
        return lower(n, Cell{Cell::Const, *t, 1});
      }
      case Op::Const:
      case Op::FConst: {
        std::optional<ValueType> t = g_.constant_type(n);
        std::optional<uint64_t> v = g_.constant_value(n);
        if (!t || !v) return lower(n, bottom());
        return lower(n, Cell{Cell::Const, *t, *v});
      }
      default: break;
    }
    bool floating = is_float_op(nd.op);
    EvalClass cls = eval_class(nd.op);
    if (cls == EvalClass::None && !floating) return lower(n, bottom());
    uint64_t args[2];
    if (nd.inputs.size() > 2) return lower(n, bottom());
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      const Cell& c = cell_[nd.inputs[i]];
      if (c.kind == Cell::Top) return;
      if (c.kind == Cell::Bottom) return lower(n, bottom());
      args[i] = c.value;
    }
    std::span<const Literal> lits{nd.literals.begin(), nd.literals.size()};
    std::optional<uint64_t> v = floating ? eval_float_pure(nd.op, lits, {args, nd.inputs.size()}, nullptr)
                                         : eval_pure(nd.op, lits, {args, nd.inputs.size()}, nullptr);
    std::optional<ValueType> t = result_type(g_, n);
    if (!v || !t) return lower(n, bottom());
    lower(n, Cell{Cell::Const, *t, *v});
  }

  // A select with a known condition is its chosen value; otherwise the
  // meet of both, as a phi after a branch on the condition.
  Cell meet_select(NodeId n) {
    const Node& nd = g_.node(n);
    const Cell& c = cell_[nd.inputs[0]];
    if (c.kind == Cell::Top) return Cell{};
    if (c.kind == Cell::Const) return cell_[nd.inputs[c.value != 0 ? 1 : 2]];
    const Cell& a = cell_[nd.inputs[1]];
    const Cell& b = cell_[nd.inputs[2]];
    if (a.kind == Cell::Bottom || b.kind == Cell::Bottom) return bottom();
    if (a.kind == Cell::Top) return b;
    if (b.kind == Cell::Top) return a;
    return a == b ? a : bottom();
  }

  Cell meet_phi(NodeId n) {
    const Node& nd = g_.node(n);
    const Node& region = g_.node(nd.control[0]);
    Cell out;
    for (size_t i = 0; i < nd.inputs.size() && i < region.control.size(); ++i) {
      if (!edge_executable(region.control[i])) continue;
      const Cell& c = cell_[nd.inputs[i]];
      if (c.kind == Cell::Top) continue;
      if (c.kind == Cell::Bottom || (out.kind == Cell::Const && !(out == c))) return bottom();
      out = c;
    }
    return out;
  }

  void branch(NodeId n) {
    const Cell& c = cell_[g_.node(n).inputs[0]];
    if (c.kind == Cell::Top) return;
    for (NodeId u : g_.users(n)) {
      if (g_.op(u) != Op::Proj) continue;
      int64_t k = g_.node(u).literals[0].as_int();
      if (c.kind == Cell::Bottom || k == (c.value != 0 ? 0 : 1)) mark_block(cfg_.block_of[u]);
    }
  }

  size_t rewrite() {
    size_t changes = 0;
    std::map<std::pair<ValueType, uint64_t>, NodeId> consts;
    for (NodeId n = 0; n < g_.size(); ++n)
      if (g_.alive(n))
        if (std::optional<uint64_t> v = g_.constant_value(n)) consts.emplace(std::pair{*g_.constant_type(n), *v}, n);
    NodeId count = g_.size();
    for (NodeId n = 0; n < count; ++n) {
      if (!g_.alive(n) || g_.constant_value(n) || cell_[n].kind != Cell::Const || g_.users(n).empty()) continue;
      auto key = std::pair{cell_[n].type, cell_[n].value};
      auto it = consts.find(key);
      NodeId c = it != consts.end() && g_.alive(it->second) ? it->second
                                                            : g_.add_constant(key.first, key.second, g_.node(n).loc);
      consts[key] = c;
      g_.replace_uses(n, c);
      if (g_.has(n, PINNED) && g_.op(n) != Op::Phi) g_.kill(n);
      else g_.kill_if_unused(n);
      ++changes;
    }
    // The rewrite replaced values and removed pinned values: the blocks
    // and their edges are the ones cfg_ holds.
    return changes + sweep_dead(g_, &cfg_);
  }

  Graph& g_;
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
  std::vector<Cell> cell_;
  std::vector<bool> exec_;
  std::vector<uint32_t> blocks_;
  std::vector<NodeId> nodes_;
  std::vector<bool> queued_;
};

}  // namespace

size_t sccp(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  size_t changes = Sccp(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
