// tail_recurse.cpp - tail recursion elimination, with an accumulator: a
// function whose return takes the result of a call to itself, or that
// result plus a value computed before the call, loops back to its start
// instead of calling (LLVM's TailRecursionElimination; gcc's tree-tailcall,
// on at -O2). `fib(n - 1) + fib(n - 2)` keeps its first call and turns the
// second into a trip around the loop: half the calls.
//
// The shape: the function's returns meet in one region R (ssa2son's form:
// the return hangs off R, its memory and value are phis of R, used by the
// return only); on one input k of R, from the block of a self call C (a
// direct call to this function's own symbol), the memory is C's memory
// result and the value is C's value result v, or `add t, v` / `add v, t`
// (the accumulation, in the result's type); C's results feed nothing else,
// so C is the last thing its block does before jumping to R. The function
// has no stack slots (a slot of this frame whose address reached the call
// would be shared with the caller's frame after the rewrite) and is not
// variadic.
//
// Rewrite (on the sea of nodes):
//  1. A loop header H after start: `jump ^start` and a region H of that
//     jump and the jump that ended C's block (its edge to R goes: R loses
//     input k with its phis' inputs). Everything that hung off start
//     except the params and entrymem hangs off H.
//  2. Phis of H: one per param (entry: the param, back: C's argument), one
//     for memory (entry: entrymem, back: C's memory input), and with an
//     accumulation one for the sum so far (entry: 0, back: sum + t). Every
//     use of a param or of entrymem reads its phi.
//  3. The return's value becomes `add sum, value`, so every path that
//     leaves returns what the chain of calls it replaced would have
//     summed. Integer addition modulo 2^n is associative and commutative,
//     so the order of the additions does not matter.
// C and its accumulation die (dce).
// Invariants needed: the son contract. Kept: the son contract (H dominates
// every block but start; each phi of H has one input per control input).
#include <algorithm>
#include <utility>

#include "passes.h"

namespace pl::sonopt {

namespace {

class TailRecursion {
 public:
  explicit TailRecursion(Graph& g) : g_(g), fn_(std::as_const(g).function()) {}

  size_t run() {
    if (fn_.signature.variadic) return 0;
    NodeId start = kNone, entrymem = kNone, ret = kNone;
    std::vector<NodeId> params(fn_.signature.params.size(), kNone);
    for (NodeId n = 0; n < g_.size(); ++n) {
      if (!g_.alive(n)) continue;
      switch (g_.op(n)) {
        case Op::Start: start = n; break;
        case Op::EntryMem: entrymem = n; break;
        case Op::Param: {
          int64_t i = g_.node(n).literals[1].as_int();
          if (i < 0 || static_cast<size_t>(i) >= params.size() || params[static_cast<size_t>(i)] != kNone) return 0;
          params[static_cast<size_t>(i)] = n;
          break;
        }
        case Op::Return:
          if (ret != kNone) return 0;
          ret = n;
          break;
        // A loop of an alloca's activations would grow the stack without
        // bound (gcc makes no tail call of a function with one either).
        // Each activation has a frame and return address of its own.
        case Op::StackSlot: case Op::VaStart: case Op::Alloca: case Op::StackSave: return 0;
        case Op::FrameAddress: case Op::ReturnAddress: return 0;
        default: break;
      }
    }
    if (start == kNone || entrymem == kNone || ret == kNone) return 0;
    if (std::find(params.begin(), params.end(), kNone) != params.end()) return 0;
    return rewrite(start, entrymem, params, ret) ? 1 : 0;
  }

 private:
  struct Site {
    size_t edge = 0;
    NodeId call = kNone, jump = kNone, addend = kNone;  // addend: t of `add t, v`, or kNone
  };

  // n has users, and all of them are `user`.
  bool only_user(NodeId n, NodeId user) const { return !g_.users(n).empty() && g_.used_only_by(n, {user}); }

  bool self_call(NodeId c) const {
    if (g_.op(c) != Op::Call) return false;
    const Node& n = g_.node(c);
    NodeId callee = n.inputs[1];
    return g_.op(callee) == Op::SymAddr && g_.node(callee).literals[0].as_string() == fn_.name &&
           n.inputs.size() == 2 + fn_.signature.params.size();
  }

  std::optional<Site> find_site(NodeId region, NodeId mem_phi, NodeId value_phi) const {
    const Node& r = g_.node(region);
    for (size_t k = 0; k < r.control.size(); ++k) {
      NodeId mem = g_.node(mem_phi).inputs[k];
      if (g_.op(mem) != Op::Proj) continue;
      NodeId call = g_.node(mem).inputs[0];
      if (!self_call(call) || !only_user(mem, mem_phi)) continue;
      NodeId jump = r.control[k];
      if (g_.op(jump) != Op::Jump || g_.node(jump).control[0] != g_.node(call).control[0]) continue;
      NodeId v = g_.proj(call, 1);
      Site site{k, call, jump, kNone};
      if (value_phi == kNone) {
        if (v != kNone && !g_.users(v).empty()) continue;
        return site;
      }
      NodeId in = g_.node(value_phi).inputs[k];
      if (in == v && only_user(v, value_phi)) return site;
      const Node& add = g_.node(in);
      if (add.op != Op::Add || v == kNone || !only_user(in, value_phi) || !only_user(v, in)) continue;
      if (add.literals[0] != Literal::string(fn_.signature.result)) continue;
      site.addend = add.inputs[0] == v ? add.inputs[1] : add.inputs[0];
      if (site.addend == v) continue;
      return site;
    }
    return std::nullopt;
  }

  bool rewrite(NodeId start, NodeId entrymem, const std::vector<NodeId>& params, NodeId ret) {
    const Node& r = g_.node(ret);
    NodeId region = r.control[0];
    if (g_.op(region) != Op::Region || r.inputs.size() > 2) return false;
    NodeId mem_phi = r.inputs[0];
    NodeId value_phi = r.inputs.size() == 2 ? r.inputs[1] : kNone;
    auto phi_of_region = [&](NodeId p) {
      return g_.op(p) == Op::Phi && g_.node(p).control[0] == region && only_user(p, ret);
    };
    if (!phi_of_region(mem_phi) || (value_phi != kNone && !phi_of_region(value_phi))) return false;
    for (NodeId u : g_.users(region))
      if (g_.op(u) == Op::Phi && u != mem_phi && u != value_phi && g_.alive(u)) return false;
    std::optional<Site> site = find_site(region, mem_phi, value_phi);
    if (!site) return false;
    if (site->addend != kNone && !literal_value_type(Literal::string(fn_.signature.result))) return false;
    Loc loc = g_.node(start).loc;
    const Node call = g_.node(site->call);
    NodeId tail_value = value_phi == kNone ? kNone : g_.node(value_phi).inputs[site->edge];
    // 1. The header.
    NodeId entry_jump = g_.add_node(Op::Jump, {}, {}, loc, {start});
    g_.remove_region_input(region, site->edge);
    NodeId header = g_.add_node(Op::Region, {}, {}, loc, {entry_jump, site->jump});
    std::vector<NodeId> moved;
    for (NodeId u : g_.users(start)) {
      OpId op = g_.op(u);
      if (u == entry_jump || op == Op::Param || op == Op::EntryMem) continue;
      if (!g_.node(u).control.empty() && g_.node(u).control[0] == start) moved.push_back(u);
    }
    std::sort(moved.begin(), moved.end());
    moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
    for (NodeId u : moved) g_.set_control(u, 0, header);
    // 2. The phis, all made before any use moves to them (a back input may
    // read another param or entrymem: it must end up reading that one's phi).
    auto phi = [&](NodeId entry, NodeId back) { return g_.add_node(Op::Phi, {}, {entry, back}, Loc{}, {header}); };
    // The accumulation is built first too: its addend may be a param
    // itself (`n + f(n - 1)`), and must then read the param's phi, the
    // value of this trip, not the value the function was entered with.
    std::vector<NodeId> param_phis;
    for (size_t i = 0; i < params.size(); ++i) param_phis.push_back(phi(params[i], call.inputs[2 + i]));
    NodeId m = phi(entrymem, call.inputs[0]);
    if (site->addend != kNone) {
      const Literal type = Literal::string(fn_.signature.result);
      NodeId zero = g_.add_const(*literal_value_type(type), 0, loc);
      NodeId sum = phi(zero, zero);
      g_.set_input(sum, 1, g_.add_node(Op::Add, {type}, {sum, site->addend}, call.loc));
      // 3. What the function returns: the sum so far plus the value.
      g_.set_input(ret, 1, g_.add_node(Op::Add, {type}, {sum, value_phi}, g_.node(ret).loc));
    }
    for (size_t i = 0; i < params.size(); ++i) {
      g_.replace_uses(params[i], param_phis[i]);
      g_.set_input(param_phis[i], 0, params[i]);
    }
    g_.replace_uses(entrymem, m);
    g_.set_input(m, 0, entrymem);
    // The call, its projs and the accumulation: nothing reads them now.
    if (tail_value != kNone) g_.kill_if_unused(tail_value);
    const UserList& users = g_.users(site->call);
    for (NodeId n : std::vector<NodeId>(users.begin(), users.end())) g_.kill_if_unused(n);
    if (g_.users(site->call).empty()) g_.kill(site->call);
    return true;
  }

  Graph& g_;
  const Function& fn_;
};

}  // namespace

size_t tail_recurse(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  size_t changes = TailRecursion(g).run();
  g.finish();
  // The body now runs again for each call it replaced, with new parameter
  // values: a parameter no longer keeps its entry value (debug information,
  // DebugVar::unchanged), and no binding says which trip's value a
  // variable has (all are lost).
  if (changes) {
    for (DebugVar& v : fn.debug.vars) v.unchanged = false;
    lose_debug_bindings(fn.debug, [](uint32_t) { return true; });
  }
  return changes;
}

}  // namespace pl::sonopt
