// dead_store.cpp - dead store elimination: a plain store whose bytes are
// overwritten before anything can read them, or that writes a stack slot
// that dies at a return, is unlinked from the memory chain.
//
// Algorithm: for each plain `store` S (address A, size s), walk the memory
// chain down from S, at most kSteps states. In each state M:
//  - a `load` reading M that may overlap [A, A+s) keeps S (alias.h);
//  - M must have exactly one other user that consumes memory (the chain's
//    next state N); a phi, a second consumer, or none keeps S;
//  - N a plain store that must alias S (same object, offset and size): S is
//    dead; N a plain store that cannot overlap S: the walk goes on from N;
//  - N a call, a copy or a volatile access: the walk goes on past it when A
//    is in a private stack slot (none can reach it), else S is kept;
//  - N a `return`: S is dead when A is in a stack slot of this function
//    (the frame is gone after the return), else kept.
// A dead store's users read its memory input instead, and it goes.
// Volatile stores are never removed, and nothing is walked past a volatile
// access unless the store is to a private slot (which no volatile access can
// touch). Scalar replacement (scalar-replace) already removes every store to
// a private slot whose accesses form fields; this pass catches the rest
// (globals, pointers, escaping slots, mixed-size fields).
// Paper: the memory-SSA formulation of DSE (Novillo, "Memory SSA - a
// unified approach for sparse representation of memory operations", 2007),
// over the sea of nodes' single memory chain.
// Invariants needed: the son contract (one memory chain; loads hang off
// states). Kept: the son contract; volatile accesses untouched.
#include "alias.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr int kSteps = 64;

// Whether store s can be removed (see the header comment).
bool store_is_dead(const Graph& g, const AliasAnalysis& aa, NodeId s) {
  Address addr = aa.decompose(g.node(s).inputs[1]);
  uint64_t size = access_size(g.node(s));
  bool private_slot = aa.private_slot(addr.base);
  NodeId m = s;
  for (int steps = 0; steps < kSteps; ++steps) {
    NodeId next = kNone;
    for (NodeId u : g.users(m)) {
      const Node& nd = g.node(u);
      if (nd.op == Op::Load && nd.inputs[0] == m) {
        if (aa.alias(aa.decompose(nd.inputs[1]), access_size(nd), addr, size) != Alias::No) return false;
        continue;
      }
      if (nd.op == Op::Proj) continue;  // cannot read a store's memory (it is not a tuple)
      if (next != kNone && next != u) return false;
      next = u;
    }
    if (next == kNone) return false;
    const Node& nd = g.node(next);
    if (nd.op == Op::Store) {
      Alias a = aa.alias(aa.decompose(nd.inputs[1]), access_size(nd), addr, size);
      if (a == Alias::Must) return true;
      if (a == Alias::May) return false;
      m = next;
      continue;
    }
    if (nd.op == Op::Return) return addr.base != kNone && g.op(addr.base) == Op::StackSlot;
    if (private_slot && (nd.op == Op::Call || nd.op == Op::LoadV || nd.op == Op::Asm || nd.op == Op::AtomicLoad ||
                         nd.op == Op::AtomicRmw || nd.op == Op::AtomicCmpXchg)) {
      m = kNone;
      for (NodeId u : g.users(next))
        if (g.op(u) == Op::Proj && g.node(u).literals[0].as_int() == 0) m = u;
      if (m == kNone) return false;
      continue;
    }
    if (private_slot && (nd.op == Op::StoreV || nd.op == Op::Copy || nd.op == Op::AtomicStore || nd.op == Op::Fence)) {
      m = next;
      continue;
    }
    return false;
  }
  return false;
}

}  // namespace

size_t dead_store(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  AliasAnalysis aa(g);
  std::vector<NodeId> dead;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::Store && store_is_dead(g, aa, n)) dead.push_back(n);
  // Removing a store only removes uses and shortens chains: each decision
  // above stays true after the others are applied (a must-alias overwrite
  // that is itself dead is overwritten by a later one, or dies at a return).
  for (NodeId s : dead) {
    NodeId value = g.node(s).inputs[2];
    g.replace_uses(s, g.node(s).inputs[0]);
    g.kill(s);
    g.kill_if_unused(value);
  }
  g.finish();
  return dead.size();
}

}  // namespace pl::sonopt
