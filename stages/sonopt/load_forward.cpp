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
//  - calls, copies and volatile accesses are stepped over when A is in a
//    stack slot whose address never escapes (none of them can reach it);
//    otherwise they stop the walk, as phis and entrymem do (volatile
//    accesses are never moved or removed).
// First, a load from read-only data of this module (a `data readonly`
// item, not weak: no other definition can replace its bytes) at a constant
// offset, inside the item and clear of its relocations, is its bytes: a
// constant of the load's type (little-endian; bytes past `init` are zero).
// A store to such an item would be undefined (natively it faults), so no
// state can hold other bytes there. (`static const int t[] = {...}; t[2]`,
// a `const double` global read in a conversion.) A pointer load of exactly
// a relocation's 8 bytes is `symaddr SYMBOL` (plus its addend): a call
// through `static const` tables of functions, or a const struct's function
// member, at a constant index becomes a direct call, which const-call and
// inline then see (devirtualization; stored function pointers reach their
// calls by the forwarding below, as any stored value does).
// The load's own memory input is never changed (no load moves past a
// store): only a value replaces a load, and that value dominates the load.
//
// Alias analysis: alias.h (base objects and constant offsets; a private
// stack slot is out of reach of calls and unknown pointers).
// Paper: the memory-SSA walk of Click's "From Quads to Graphs" (1993) loads
// over the sea of nodes; escape by use inspection.
// Invariants needed: the son contract; operands have the type literals say.
// Kept: the son contract; volatile accesses untouched.
#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "alias.h"
#include "passes.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

constexpr int kSteps = 64;

class LoadForward {
 public:
  LoadForward(Graph& g, const ModuleHeader& header)
      : g_(g), header_(header), cfg_ptr_(g.son_cfg()), cfg_(*cfg_ptr_), aa_(g) {}

  // Sweeps until a sweep changes nothing (a forwarded value may make a
  // later address or an earlier load equal to another), at most kSweeps.
  size_t run() {
    constexpr int kSweeps = 4;
    size_t changes = 0;
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
      size_t before = changes;
      for (NodeId n = 0; n < g_.size(); ++n)
        if (g_.alive(n) && g_.op(n) == Op::Load && (from_readonly_data(n) || forward(n))) ++changes;
      if (changes == before) break;
    }
    return changes;
  }

 private:
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
      if (aa_.alias(aa_.decompose(g_.node(u).inputs[1]), size, addr, size) != Alias::Must) continue;
      if (dominates(u, load)) found = std::min(found, u);
    }
    return found;
  }

  // The read-only data item symaddr node `base` names, or null.
  const DataItem* readonly_item(NodeId base) {
    if (base == kNone || g_.op(base) != Op::SymAddr) return nullptr;
    if (!readonly_built_) {
      for (const DataItem& d : header_.data)
        if (d.readonly && !d.attrs.weak) readonly_.emplace(d.name, &d);
      readonly_built_ = true;
    }
    auto it = readonly_.find(g_.node(base).literals[0].as_string());
    return it == readonly_.end() ? nullptr : it->second;
  }

  bool from_readonly_data(NodeId load) {
    const Node& ld = g_.node(load);
    Address addr = aa_.decompose(ld.inputs[1]);
    const DataItem* item = readonly_item(addr.base);
    std::optional<ValueType> type = literal_value_type(ld.literals[0]);
    uint64_t size = access_size(ld);
    if (!item || !type || addr.offset < 0 || size > 8) return false;
    uint64_t begin = static_cast<uint64_t>(addr.offset), end = begin + size;
    if (end > item->size) return false;
    for (const Reloc& r : item->relocs) {
      if (!(r.offset < end && begin < r.offset + 8)) continue;
      // Exactly a relocation's 8 bytes, read as a pointer: the symbol's
      // address (devirtualization: a call through a `static const` table
      // of functions at a constant index names its callee directly).
      if (r.offset != begin || size != 8 || *type != ValueType::Ptr) return false;
      NodeId sym = g_.add_node(Op::SymAddr, {Literal::string(r.symbol)}, {}, ld.loc);
      if (r.addend != 0)
        sym = g_.add_node(Op::Add, {Literal::string("ptr")}, {sym, g_.add_constant(ValueType::Ptr, static_cast<uint64_t>(r.addend), ld.loc)},
                          ld.loc);
      return replace(load, sym);
    }
    uint64_t value = 0;
    for (uint64_t i = 0; i < size; ++i) {
      uint64_t at = begin + i;
      uint64_t byte = at < item->init.size() ? static_cast<uint8_t>(item->init[at]) : 0;
      value |= byte << (8 * i);
    }
    return replace(load, g_.add_constant(*type, value, ld.loc));
  }

  bool forward(NodeId load) {
    const Node& ld = g_.node(load);
    Address addr = aa_.decompose(ld.inputs[1]);
    uint64_t size = access_size(ld);
    NodeId m = ld.inputs[0];
    for (int steps = 0; steps < kSteps; ++steps) {
      if (m != ld.inputs[0]) {
        if (NodeId other = earlier_load(load, m, addr, size); other != kNone) return replace(load, other);
      }
      const Node& def = g_.node(m);
      if (def.op == Op::Store) {
        Alias a = aa_.alias(aa_.decompose(def.inputs[1]), access_size(def), addr, size);
        if (a == Alias::Must && def.literals[0] == ld.literals[0]) return replace(load, def.inputs[2]);
        if (a != Alias::No) return false;
        m = def.inputs[0];
        continue;
      }
      if (NodeId before = memory_input_skipping_private(g_, m); before != kNone && aa_.private_slot(addr.base)) {
        m = before;
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
  const ModuleHeader& header_;
  std::unordered_map<std::string_view, const DataItem*> readonly_;  // name -> read-only item
  bool readonly_built_ = false;                                      // (built on first use)
  std::shared_ptr<const SonCfg> cfg_ptr_;  // the graph's (cached while unedited)
  const SonCfg& cfg_;
  AliasAnalysis aa_;
};

}  // namespace

size_t load_forward(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  Graph g(fn, cache);
  size_t changes = LoadForward(g, header).run();
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
