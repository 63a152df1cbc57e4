// load_forward.cpp - store-to-load forwarding and redundant load
// elimination over an alias analysis of base objects.
//
// Algorithm: for each `load` (type T, address A, memory state M), walk the
// memory chain up from M, at most kSteps states:
//  - if a `load` of T from an address that must equal A reads the current
//    state, in a block that dominates ours (or ours), it is the value: our
//    load is replaced by it (redundant load elimination);
//  - a `store` of T to an address that must equal A gives its value
//    (store-to-load forwarding); a store that cannot overlap [A, A+size(T))
//    is stepped over to its own memory input; anything else stops the walk;
//  - the memory result of a `call` is stepped over when A is in a stack
//    slot whose address never escapes (the callee cannot reach it);
//  - phis, entrymem, copies and volatile accesses stop the walk (volatile
//    accesses are never looked through, moved or removed).
// The load's own memory input is never changed (no load moves past a
// store): only a value replaces a load, and that value dominates the load.
//
// Alias analysis (base objects and offsets, as in LLVM's BasicAA): an
// address is decomposed into a base and a constant byte offset through
// `add "ptr", x, const` chains. Bases: a `stackslot` node (each node its own
// object), a `symaddr` (an object per symbol name), or unknown. Two accesses
// with the same base (or the same root node, whatever it is) and known
// offsets overlap iff their byte ranges do, and
// must alias iff offset and size are equal; different stack slots and
// symbols never alias (C objects are disjoint); an unknown pointer cannot
// point into a stack slot whose address never escapes (every use of the
// slot, through constant-offset adds, is the address of a plain load or
// store); anything else may alias.
// Paper: the memory-SSA walk of Click's "From Quads to Graphs" (1993) loads
// over the sea of nodes; escape by use inspection.
// Invariants needed: the son contract; operands have the type literals say.
// Kept: the son contract; volatile accesses untouched.
#include <algorithm>
#include <optional>

#include "passes.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

constexpr int kSteps = 64;

struct Address {
  NodeId root = kNone;   // what the constant offsets are added to
  NodeId base = kNone;   // root when it is a stackslot or symaddr, else kNone (unknown)
  int64_t offset = 0;
};

enum class Alias { No, May, Must };

bool is_ptr(const Literal& type) { return literal_value_type(type) == ValueType::Ptr; }

class LoadForward {
 public:
  explicit LoadForward(Graph& g) : g_(g), cfg_(build_son_cfg(g)), escapes_(g.size(), true) {
    for (NodeId n = 0; n < g_.size(); ++n)
      if (g_.alive(n) && g_.op(n) == Op::StackSlot) escapes_[n] = slot_escapes(n);
  }

  // Sweeps until a sweep changes nothing (a forwarded value may make a
  // later address or an earlier load equal to another), at most kSweeps.
  size_t run() {
    constexpr int kSweeps = 4;
    size_t changes = 0;
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
      size_t before = changes;
      for (NodeId n = 0; n < g_.size(); ++n)
        if (g_.alive(n) && g_.op(n) == Op::Load && forward(n)) ++changes;
      if (changes == before) break;
    }
    return changes;
  }

 private:
  Address decompose(NodeId n) const {
    Address a;
    for (int steps = 0; steps < kSteps; ++steps) {
      const Node& nd = g_.node(n);
      if (nd.op == Op::Add && is_ptr(nd.literals[0]) && g_.is_const(nd.inputs[1])) {
        a.offset += static_cast<int64_t>(g_.const_value_of(nd.inputs[1]));
        n = nd.inputs[0];
        continue;
      }
      a.root = n;
      if (nd.op == Op::StackSlot || nd.op == Op::SymAddr) a.base = n;
      return a;
    }
    return a;  // root unknown: nothing is known about it
  }

  // Every use of the slot, through constant-offset adds, is the address of a
  // plain load or store.
  bool slot_escapes(NodeId slot) const {
    std::vector<NodeId> stack = {slot};
    size_t visited = 0;
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      if (++visited > 4096) return true;
      for (NodeId u : g_.users(n)) {
        const Node& nd = g_.node(u);
        if ((nd.op == Op::Load || nd.op == Op::Store) && nd.inputs[1] == n &&
            (nd.op == Op::Load || nd.inputs[2] != n))
          continue;
        if (nd.op == Op::Add && nd.inputs[0] == n && nd.inputs[1] != n && g_.is_const(nd.inputs[1]) &&
            is_ptr(nd.literals[0])) {
          stack.push_back(u);
          continue;
        }
        return true;
      }
    }
    return false;
  }

  bool same_object(NodeId a, NodeId b) const {
    if (a == b) return true;
    if (g_.op(a) == Op::SymAddr && g_.op(b) == Op::SymAddr)
      return g_.node(a).literals[0] == g_.node(b).literals[0];
    return false;
  }

  bool private_slot(NodeId base) const { return base != kNone && g_.op(base) == Op::StackSlot && !escapes_[base]; }

  Alias alias(Address a, uint64_t a_size, Address b, uint64_t b_size) const {
    bool same_root = a.root != kNone && a.root == b.root;
    if (same_root || (a.base != kNone && b.base != kNone)) {
      if (!same_root && !same_object(a.base, b.base)) return Alias::No;
      if (a.offset == b.offset && a_size == b_size) return Alias::Must;
      bool disjoint = a.offset + static_cast<int64_t>(a_size) <= b.offset ||
                      b.offset + static_cast<int64_t>(b_size) <= a.offset;
      return disjoint ? Alias::No : Alias::May;
    }
    if (private_slot(a.base) || private_slot(b.base)) return Alias::No;
    return Alias::May;
  }

  static uint64_t size_of(const Node& access) { return type_bytes(*literal_value_type(access.literals[0])); }

  bool dominates(NodeId a, NodeId b) const {
    uint32_t ba = cfg_.block_of_node(g_, a), bb = cfg_.block_of_node(g_, b);
    if (ba == DomTree::kNone || bb == DomTree::kNone) return false;
    return ba == bb || (cfg_.reachable(ba) && cfg_.reachable(bb) && cfg_.dom.dominates(ba, bb));
  }

  // An earlier load of the same type and address reading state m.
  NodeId earlier_load(NodeId load, NodeId m, Address addr, uint64_t size) const {
    NodeId found = kNone;
    for (NodeId u : g_.users(m)) {
      if (u == load || !g_.alive(u) || g_.op(u) != Op::Load || g_.node(u).inputs[0] != m) continue;
      if (!(g_.node(u).literals[0] == g_.node(load).literals[0])) continue;
      if (alias(decompose(g_.node(u).inputs[1]), size, addr, size) != Alias::Must) continue;
      if (dominates(u, load)) found = std::min(found, u);
    }
    return found;
  }

  bool forward(NodeId load) {
    const Node& ld = g_.node(load);
    Address addr = decompose(ld.inputs[1]);
    uint64_t size = size_of(ld);
    NodeId m = ld.inputs[0];
    for (int steps = 0; steps < kSteps; ++steps) {
      if (m != ld.inputs[0]) {
        if (NodeId other = earlier_load(load, m, addr, size); other != kNone) return replace(load, other);
      }
      const Node& def = g_.node(m);
      if (def.op == Op::Store) {
        Alias a = alias(decompose(def.inputs[1]), size_of(def), addr, size);
        if (a == Alias::Must && def.literals[0] == ld.literals[0]) return replace(load, def.inputs[2]);
        if (a != Alias::No) return false;
        m = def.inputs[0];
        continue;
      }
      if (def.op == Op::Proj && g_.op(def.inputs[0]) == Op::Call && private_slot(addr.base)) {
        m = g_.node(def.inputs[0]).inputs[0];
        continue;
      }
      return false;
    }
    return false;
  }

  bool replace(NodeId load, NodeId value) {
    g_.replace_uses(load, value);
    g_.kill(load);
    return true;
  }

  Graph& g_;
  SonCfg cfg_;
  std::vector<bool> escapes_;
};

}  // namespace

size_t load_forward(Function& fn, const ModuleHeader&) {
  Graph g(fn);
  size_t changes = LoadForward(g).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
