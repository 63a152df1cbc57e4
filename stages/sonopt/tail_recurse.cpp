// tail_recurse.cpp - tail recursion elimination, with an accumulator: a
// function whose return takes the result of a call to itself, or that
// result combined with a value computed before the call, loops back to its
// start instead of calling (LLVM's TailRecursionElimination; gcc's
// tree-tailcall, on at -O2). `fib(n - 1) + fib(n - 2)` keeps its first call
// and turns the second into a trip around the loop: half the calls.
//
// The shape: a site is a self call C_k (a direct call to this function's
// own symbol) whose results only a return reads, either a return in C_k's
// own block, or one that hangs off a region R (ssa2son's join of returns:
// the return's memory and value are phis of R, used by the return only)
// on an input k of R that comes from C_k's block. Every site of every
// return qualifies (`return c ? f(a) : f(b)`, several `return f(...)`
// statements, a call after stores, a void function's call before its
// end). The return's memory is C_k's memory result and its value C_k's
// value result v, or `OP t, v` / `OP v, t` with OP `add` or `mul` (the
// accumulation, in the result's type; one OP for the whole function);
// C_k's results feed nothing else, so C_k is the last thing its block
// does. A path that returns is left (a return that is not a site, or an
// input of R that is not); an R whose inputs all are sites goes, with its
// phis and return. The function has no stack slots (a slot of this frame
// whose address reached the call would be shared with the caller's frame
// after the rewrite; gcc refuses the same), no alloca, va_start or frame
// and return address, and is not variadic.
//
// Rewrite (on the sea of nodes):
//  1. A loop header H after start: `jump ^start` and a region H of that
//     jump and the jump that ended each C_k's block (their edges to R go:
//     R loses those inputs with their phis' inputs; a return in C_k's
//     block is replaced by a jump). Everything that hung
//     off start except the params and entrymem hangs off H.
//  2. Phis of H: one per param (entry: the param, back k: C_k's argument),
//     one for memory (entry: entrymem, back k: C_k's memory input), and
//     with an accumulation one for the value so far (entry: OP's identity,
//     0 or 1; back k: `OP acc, t_k`, or acc where C_k's value is returned
//     as it is). Every use of a param or of entrymem reads its phi.
//  3. Each return's value becomes `OP acc, value`, so every path that
//     leaves returns what the chain of calls it replaced would have
//     combined. Integer addition and multiplication modulo 2^n are
//     associative and commutative, so the order does not matter.
// Each C_k and its accumulation die (dce).
// Invariants needed: the son contract. Kept: the son contract (H dominates
// every block but start; each phi of H has one input per control input).
#include <algorithm>
#include <map>
#include <utility>

#include "passes.h"

namespace pl::sonopt {

namespace {

class TailRecursion {
 public:
  explicit TailRecursion(Graph& g) : g_(g), fn_(std::as_const(g).function()) {}

  size_t run() {
    if (fn_.signature.variadic) return 0;
    NodeId start = kNone, entrymem = kNone;
    std::vector<NodeId> params(fn_.signature.params.size(), kNone), returns;
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
        case Op::Return: returns.push_back(n); break;
        // A loop of an alloca's activations would grow the stack without
        // bound (gcc makes no tail call of a function with one either).
        // Each activation has a frame and return address of its own.
        case Op::StackSlot: case Op::VaStart: case Op::Alloca: case Op::StackSave: return 0;
        case Op::FrameAddress: case Op::ReturnAddress: return 0;
        default: break;
      }
    }
    if (start == kNone || entrymem == kNone || returns.empty()) return 0;
    if (std::find(params.begin(), params.end(), kNone) != params.end()) return 0;
    return rewrite(start, entrymem, params, returns) ? 1 : 0;
  }

 private:
  // One back edge: a self call C whose results only a return reads, on
  // input `edge` of the region R the return hangs off (region != kNone),
  // or by a return in C's own block (region == kNone).
  struct Site {
    NodeId region = kNone, ret = kNone;
    size_t edge = 0;
    NodeId call = kNone, jump = kNone, addend = kNone;  // addend: t of `OP t, v`, or kNone
    OpId op = Op::Add;                                   // OP, when there is an addend
    NodeId tail_value = kNone;                           // what the return read of C's value
  };

  static constexpr NodeId kDropped = kNone - 1;  // a site's R, dropped whole

  // n has users, and all of them are `user`.
  bool only_user(NodeId n, NodeId user) const { return !g_.users(n).empty() && g_.used_only_by(n, {user}); }

  bool self_call(NodeId c) const {
    if (g_.op(c) != Op::Call) return false;
    const Node& n = g_.node(c);
    NodeId callee = n.inputs[1];
    return g_.op(callee) == Op::SymAddr && g_.node(callee).literals[0].as_string() == fn_.name &&
           n.inputs.size() == 2 + fn_.signature.params.size();
  }

  // Whether the memory `mem` and the value `in` (kNone: void) a return
  // reads through `reader` (the return, or R's phis) come from a self call
  // in block `block` that nothing else reads: the site, its jump unset.
  std::optional<Site> site_of(NodeId mem, NodeId mem_reader, NodeId in, NodeId value_reader, NodeId block) const {
    if (g_.op(mem) != Op::Proj) return std::nullopt;
    NodeId call = g_.node(mem).inputs[0];
    if (!self_call(call) || !only_user(mem, mem_reader) || g_.node(call).control[0] != block) return std::nullopt;
    NodeId v = g_.proj(call, 1);
    Site site;
    site.call = call;
    site.tail_value = in;
    if (in == kNone) {
      if (v != kNone && !g_.users(v).empty()) return std::nullopt;
      return site;
    }
    if (in == v && only_user(v, value_reader)) return site;
    const Node& acc = g_.node(in);
    if ((acc.op != Op::Add && acc.op != Op::Mul) || v == kNone || !only_user(in, value_reader) || !only_user(v, in))
      return std::nullopt;
    if (acc.literals[0] != Literal::string(fn_.signature.result)) return std::nullopt;
    site.addend = acc.inputs[0] == v ? acc.inputs[1] : acc.inputs[0];
    site.op = acc.op;
    if (site.addend == v) return std::nullopt;
    return site;
  }

  // The sites of one return: itself, when it ends a self call's block; or
  // inputs of the region it hangs off (ssa2son's join of several returns),
  // all but one at most, so that the region keeps an input.
  void find_sites(NodeId ret, std::vector<Site>& sites) const {
    const Node& r = g_.node(ret);
    if (r.inputs.size() > 2) return;
    NodeId mem = r.inputs[0], value = r.inputs.size() == 2 ? r.inputs[1] : kNone;
    NodeId block = r.control[0];
    if (g_.op(block) != Op::Region) {
      if (std::optional<Site> site = site_of(mem, ret, value, ret, block)) {
        site->ret = ret;
        sites.push_back(*site);
      }
      return;
    }
    auto phi_of_region = [&](NodeId p) {
      return g_.op(p) == Op::Phi && g_.node(p).control[0] == block && only_user(p, ret);
    };
    if (!phi_of_region(mem) || (value != kNone && !phi_of_region(value))) return;
    for (NodeId u : g_.users(block))
      if (g_.op(u) == Op::Phi && u != mem && u != value && g_.alive(u)) return;
    const Node& region = g_.node(block);
    std::vector<Site> found;
    for (size_t k = 0; k < region.control.size(); ++k) {
      NodeId jump = region.control[k];
      if (g_.op(jump) != Op::Jump) continue;
      std::optional<Site> site = site_of(g_.node(mem).inputs[k], mem, value == kNone ? kNone : g_.node(value).inputs[k],
                                         value, g_.node(jump).control[0]);
      if (!site) continue;
      site->region = block;
      site->ret = ret;
      site->edge = k;
      site->jump = jump;
      found.push_back(*site);
    }
    sites.insert(sites.end(), found.begin(), found.end());
  }

  bool rewrite(NodeId start, NodeId entrymem, const std::vector<NodeId>& params, const std::vector<NodeId>& returns) {
    std::vector<Site> all;
    for (NodeId ret : returns) find_sites(ret, all);
    // One accumulation for the whole function: the first site's OP.
    std::vector<Site> sites;
    std::optional<OpId> op_seen;
    for (const Site& site : all) {
      if (site.addend != kNone) {
        if (op_seen && *op_seen != site.op) continue;
        op_seen = site.op;
      }
      sites.push_back(site);
    }
    if (sites.empty()) return false;
    // A return whose every path is a site goes (a return in the call's
    // block, or R with every input a site: R, its phis and the return are
    // dropped, and R's jumps go to the header). A path that returns must
    // be left.
    std::map<NodeId, size_t> per_region;
    for (const Site& site : sites)
      if (site.region != kNone) ++per_region[site.region];
    auto consumed = [&](NodeId ret) {
      NodeId block = g_.node(ret).control[0];
      for (const Site& site : sites)
        if (site.ret == ret && site.region == kNone) return true;
      auto it = per_region.find(block);
      return g_.op(block) == Op::Region && it != per_region.end() && it->second == g_.node(block).control.size();
    };
    if (std::all_of(returns.begin(), returns.end(), consumed)) return false;
    const Literal type = Literal::string(fn_.signature.result);
    bool accumulates = op_seen.has_value();
    if (accumulates && !literal_value_type(type)) return false;
    OpId op = accumulates ? *op_seen : OpId{Op::Add};
    Loc loc = g_.node(start).loc;
    std::vector<Node> calls;
    for (const Site& site : sites) calls.push_back(g_.node(site.call));
    // 1. The header. R's inputs go last first (the others keep their
    // index); a return that ends a self call's block becomes a jump.
    NodeId entry_jump = g_.add_node(Op::Jump, {}, {}, loc, {start});
    std::vector<size_t> order(sites.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::pair{sites[a].region, sites[a].edge} > std::pair{sites[b].region, sites[b].edge};
    });
    for (NodeId ret : returns) {
      NodeId block = g_.node(ret).control[0];
      if (g_.op(block) != Op::Region || !consumed(ret)) continue;
      std::vector<NodeId> phis(g_.node(ret).inputs.begin(), g_.node(ret).inputs.end());
      g_.kill(ret);
      for (NodeId p : phis) g_.kill(p);
      g_.kill(block);
      for (Site& site : sites)
        if (site.region == block) site.region = kDropped;
    }
    for (size_t k : order) {
      Site& site = sites[k];
      if (site.region == kDropped) continue;
      if (site.region != kNone) {
        g_.remove_region_input(site.region, site.edge);
      } else {
        site.jump = g_.add_node(Op::Jump, {}, {}, g_.node(site.ret).loc, {g_.node(site.ret).control[0]});
        g_.kill(site.ret);
      }
    }
    ControlList header_inputs{entry_jump};
    for (const Site& site : sites) header_inputs.push_back(site.jump);
    NodeId header = g_.add_node(Op::Region, {}, {}, loc, header_inputs);
    std::vector<NodeId> moved;
    for (NodeId u : g_.users(start)) {
      OpId o = g_.op(u);
      if (u == entry_jump || o == Op::Param || o == Op::EntryMem) continue;
      if (!g_.node(u).control.empty() && g_.node(u).control[0] == start) moved.push_back(u);
    }
    std::sort(moved.begin(), moved.end());
    moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
    for (NodeId u : moved) g_.set_control(u, 0, header);
    // 2. The phis, all made before any use moves to them (a back input may
    // read another param or entrymem: it must end up reading that one's phi).
    auto phi = [&](NodeId entry, auto back) {
      InputList inputs{entry};
      for (size_t k = 0; k < sites.size(); ++k) inputs.push_back(back(k));
      return g_.add_node(Op::Phi, {}, inputs, Loc{}, {header});
    };
    // The accumulation is built first too: its addend may be a param
    // itself (`n + f(n - 1)`), and must then read the param's phi, the
    // value of this trip, not the value the function was entered with.
    std::vector<NodeId> param_phis;
    for (size_t i = 0; i < params.size(); ++i)
      param_phis.push_back(phi(params[i], [&](size_t k) { return calls[k].inputs[2 + i]; }));
    NodeId m = phi(entrymem, [&](size_t k) { return calls[k].inputs[0]; });
    if (accumulates) {
      NodeId identity = g_.add_const(*literal_value_type(type), op == Op::Mul ? 1 : 0, loc);
      NodeId acc = phi(identity, [&](size_t) { return identity; });
      for (size_t k = 0; k < sites.size(); ++k)
        g_.set_input(acc, 1 + k,
                     sites[k].addend == kNone ? acc
                                              : g_.add_node(op, {type}, {acc, sites[k].addend}, calls[k].loc));
      // 3. What each return left returns: the value so far combined with its value.
      for (NodeId ret : returns)
        if (g_.alive(ret) && g_.node(ret).inputs.size() == 2)
          g_.set_input(ret, 1, g_.add_node(op, {type}, {acc, g_.node(ret).inputs[1]}, g_.node(ret).loc));
    }
    for (size_t i = 0; i < params.size(); ++i) {
      g_.replace_uses(params[i], param_phis[i]);
      g_.set_input(param_phis[i], 0, params[i]);
    }
    g_.replace_uses(entrymem, m);
    g_.set_input(m, 0, entrymem);
    // The calls, their projs and the accumulations: nothing reads them now.
    for (const Site& site : sites) {
      if (site.tail_value != kNone && g_.alive(site.tail_value)) g_.kill_if_unused(site.tail_value);
      const UserList& users = g_.users(site.call);
      for (NodeId n : std::vector<NodeId>(users.begin(), users.end())) g_.kill_if_unused(n);
      if (g_.users(site.call).empty()) g_.kill(site.call);
    }
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
