// gvn.cpp - global value numbering by hash-consing.
//
// Algorithm: seed 000's instantiation cache, applied to nodes: a node is
// identified by its opcode, its literals and its input ids (its "inputs
// hash"); the first node with a given key is the representative and every
// later node with the same key is replaced by it. Nodes are visited in a
// topological order (inputs first; a phi waits only for its region), so
// when a node is keyed its inputs are already representatives and equal
// expressions meet however deep they are (Click's hash-consing GVN, "Global
// Code Motion / Global Value Numbering", PLDI 1995, without the code motion,
// which son2cfg does).
//
// What is keyed:
//  - pure nodes except `stackslot` (two slots are two objects) by opcode,
//    literals and inputs; the inputs of add mul and or xor eq ne sorted;
//  - phis by their region and inputs;
//  - projs of calls and volatile loads by tuple and index;
//  - `load`s by type, memory state and address, and divisions by operands:
//    pinned nodes, so a later one is replaced only by one in a block that
//    dominates its own (the same memory state and address read the same
//    value; a division that already ran did not trap). Dominators come from
//    son_cfg.h.
// Never keyed: calls, stores, volatile accesses, params, control.
// Invariants needed: the son contract. Kept: the son contract; a replaced
// pure node's users can still be placed (the representative's inputs
// dominate every use of both), a replaced pinned node's representative
// dominates it.
#include <algorithm>
#include <cstring>
#include <string>

#include "passes.h"
#include "son_cfg.h"

namespace pl::sonopt {

namespace {

bool commutative(OpId op) {
  return op == Op::Add || op == Op::Mul || op == Op::And || op == Op::Or || op == Op::Xor || op == Op::Eq ||
         op == Op::Ne;
}

enum class Keyed { No, Floating, Dominated };

Keyed keyed(const Graph& g, NodeId n) {
  OpId op = g.op(n);
  if (op == Op::StackSlot) return Keyed::No;
  if (op == Op::Phi) return Keyed::Floating;  // its region is part of the key
  if (op == Op::Proj) {
    OpId tuple = g.op(g.node(n).inputs[0]);
    return tuple == Op::Call || tuple == Op::LoadV ? Keyed::Floating : Keyed::No;
  }
  if (op == Op::Load || eval_class(op) == EvalClass::Divide) return Keyed::Dominated;
  if (g.has(n, PURE)) return Keyed::Floating;
  return Keyed::No;
}

void append_word(std::string& key, uint64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); }

// The key of n, written into `key` (reused across nodes): the opcode, each
// literal as its kind and payload or text, the region (floating nodes), the
// inputs (sorted when commutative); every list prefixed by its length, so
// two keys are equal exactly when all of these are. (Equal literals by kind
// and bits or text are equal JSON texts and the reverse: -0.0 and 0.0
// differ in both.)
void key_of(const Graph& g, NodeId n, Keyed how, std::string& key) {
  const Node& nd = g.node(n);
  key.clear();
  append_word(key, (uint64_t{nd.op} << 32) | nd.literals.size());
  for (const Literal& l : nd.literals) {
    Literal::Kind kind = l.kind();
    if (kind == Literal::Kind::String || kind == Literal::Kind::Json) {
      std::string_view text = l.text();
      append_word(key, (uint64_t{static_cast<uint8_t>(kind)} << 56) | text.size());
      key.append(text);
    } else {
      key.push_back(static_cast<char>(kind));
      append_word(key, l.bits());
    }
  }
  if (how == Keyed::Floating) {
    append_word(key, nd.control.size());
    for (NodeId c : nd.control) append_word(key, c);
  }
  append_word(key, nd.inputs.size());
  InputList inputs = nd.inputs;
  if (commutative(nd.op)) std::sort(inputs.begin(), inputs.end());
  key.append(reinterpret_cast<const char*>(inputs.data()), inputs.size() * sizeof(NodeId));
}

// The hash-consing table: key bytes (key_of) -> the nodes with that key,
// in the order they were added. Open addressing over a power-of-two array
// sized for every node up front (no rehash); keys live in one arena, lists
// are linked through two arrays: no allocation per node.
class KeyTable {
 public:
  explicit KeyTable(size_t nodes) {
    size_t capacity = 16;
    while (capacity < 2 * nodes + 2) capacity <<= 1;
    slots_.assign(capacity, Slot{});
  }

  // The entry of `key`; `fresh` tells whether it was just made (empty).
  uint32_t entry(std::string_view key, bool& fresh) {
    uint64_t h = hash(key);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.len == kEmpty) {
        s = {h, static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(key.size()), kEnd, kEnd};
        arena_.append(key);
        fresh = true;
        return static_cast<uint32_t>(i);
      }
      if (s.hash == h && s.len == key.size() && std::string_view(arena_).substr(s.offset, s.len) == key) {
        fresh = false;
        return static_cast<uint32_t>(i);
      }
    }
  }
  void append(uint32_t e, NodeId n) {
    uint32_t link = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(n);
    next_.push_back(kEnd);
    Slot& s = slots_[e];
    if (s.head == kEnd) s.head = link;
    else next_[s.tail] = link;
    s.tail = link;
  }
  // The entry's nodes: links from first(e) through next(link) to kEnd.
  static constexpr uint32_t kEnd = ~0u;
  uint32_t first(uint32_t e) const { return slots_[e].head; }
  uint32_t next(uint32_t link) const { return next_[link]; }
  NodeId node(uint32_t link) const { return nodes_[link]; }

 private:
  static constexpr uint32_t kEmpty = ~0u;
  struct Slot {
    uint64_t hash = 0;
    uint32_t offset = 0, len = kEmpty, head = kEnd, tail = kEnd;
  };
  static uint64_t hash(std::string_view key) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ key.size();
    size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, key.data() + i, 8);
      h = (h ^ w) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, key.data() + i, key.size() - i);
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
  }
  std::vector<Slot> slots_;
  std::string arena_;
  std::vector<NodeId> nodes_;
  std::vector<uint32_t> next_;
};

}  // namespace

size_t gvn(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  Graph g(fn, cache);
  std::shared_ptr<const SonCfg> blocks = g.son_cfg();  // kept: replacing pure nodes and loads moves no block
  const SonCfg& cfg = *blocks;
  KeyTable table(g.size());
  std::string key;
  size_t changes = 0;
  for (NodeId n : topological_order(g)) {
    if (!g.alive(n)) continue;
    Keyed how = keyed(g, n);
    if (how == Keyed::No) continue;
    key_of(g, n, how, key);
    bool fresh = false;
    uint32_t e = table.entry(key, fresh);
    NodeId rep = kNone;
    for (uint32_t link = table.first(e); link != KeyTable::kEnd; link = table.next(link)) {
      NodeId m = table.node(link);
      if (how == Keyed::Floating) {
        rep = m;
        break;
      }
      uint32_t bm = cfg.block_of_node(g, m), bn = cfg.block_of_node(g, n);
      if (bm == bn || (cfg.reachable(bm) && cfg.reachable(bn) && cfg.dom.dominates(bm, bn))) {
        rep = m;
        break;
      }
    }
    if (rep == kNone) {
      table.append(e, n);
      continue;
    }
    g.replace_uses(n, rep);
    g.kill(n);  // its inputs stay: the representative reads the same ones
    ++changes;
  }
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
