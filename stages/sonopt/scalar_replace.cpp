// scalar_replace.cpp - scalar replacement of aggregates: a stack slot whose
// address never escapes becomes values, one per field, so small local
// structs and arrays indexed by constants live in registers.
//
// Algorithm: for each private stack slot (alias.h: every use, through
// constant-offset adds, is the address of a plain load or store), collect
// its accesses. They must form fields: accesses at the same offset have the
// same type literal, the byte ranges of different offsets are disjoint and
// inside the slot; otherwise the slot is left alone (a union read through
// another member, a partly overwritten field). Then SSA construction over
// the memory graph, on demand (Braun et al., "Simple and Efficient
// Construction of Static Single Assignment Form", CC 2013, with the memory
// states standing in for the blocks): the value of field F in memory state
// M is
//  - the stored value, when M is a store to F;
//  - the value in M's memory input, when M is any other store, a call, a
//    copy or a volatile access (none can touch a private slot);
//  - a new value phi on the region of M, when M is a memory phi, whose
//    input i is the value of F in the phi's input i (the phi is created
//    first, so a loop finds it again instead of recursing);
//  - `undefined` at entrymem (or an undefined memory): an uninitialized
//    local has an indeterminate value; but 0 for a field that a store
//    updates from its own value (a read-modify-write, as a bit-field's
//    unit is written: its other bits kept). 0 is one of the values the
//    indeterminate bytes may hold, and with it the bits a program wrote
//    read back defined; with `undefined` every field of a partly written
//    unit would read as undefined (pipe-run stops on it), where the
//    machine gives the written bits. So a struct's bit-fields live in a
//    register like any other field.
// Each load of the slot is replaced by its field's value at its memory
// input, each store to it is unlinked from the memory chain (its users read
// its memory input), and the slot and its address arithmetic go. Phis that
// turn out trivial are left to simplify-cfg, unused ones to dce.
//
// Debug information: a C variable that lived in the slot (its DebugVar's
// slot, which the optimizers keep until sonopt writes the function), a
// scalar that is the slot's one field, gets debug value bindings as
// cfg2ssa gives a variable kept in a register (FORMAT.md "Bindings through
// the pipeline"): each store binds it to the stored value, positioned at
// the store (when the store goes, the graph moves the position to the
// memory state before it, in the same block), and each value phi made for
// the field at its region (droppable). Bindings are appended phis first,
// then stores in memory-chain order, so bindings that end up at one
// position take effect in program order. A struct or array variable gets
// the same bindings per field, as pieces (DebugBind offset and size: the
// field's bytes in the variable), which codegen-x64 writes as DW_OP_piece
// location expressions: `p s` shows the fields the code keeps and
// `<optimized out>` for the others. (A union read through another member,
// or any overlap of fields, leaves the slot in memory: find_fields.)
//
// The walk up a memory chain memoizes every state it passes, so the whole
// slot costs O(accesses + memory states x fields touched); a slot with more
// than kMaxFields fields is left in memory.
// Invariants needed: the son contract (memory states form a chain with phis
// at regions). Kept: the son contract; the memory chain loses only the
// stores to replaced slots; volatile accesses are untouched (a slot with a
// volatile access escapes).
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "alias.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr size_t kMaxFields = 64;

struct Field {
  int64_t offset;
  Literal type;
};

class SlotReplacer {
 public:
  SlotReplacer(Graph& g, const AliasAnalysis& aa, NodeId slot, std::vector<uint8_t>& walkable, WalkMarks& seen,
               const ModuleDebug& types)
      : g_(g), aa_(aa), slot_(slot), walkable_(walkable), seen_(seen), types_(types) {}

  // Replaces the slot by values; false (and nothing changed) when its
  // accesses do not form fields or its memory graph has a node this pass
  // does not know.
  bool run() {
    accesses_ = aa_.slot_accesses(slot_);
    if (!find_fields()) return false;
    find_updated_fields();
    for (NodeId a : accesses_)
      if (g_.op(a) == Op::Load && !walkable(g_.node(a).inputs[0])) return false;
    std::vector<std::pair<NodeId, NodeId>> replacements;  // load -> value
    for (NodeId a : accesses_)
      if (g_.op(a) == Op::Load) replacements.emplace_back(a, value_at(field_of_[a], g_.node(a).inputs[0]));
    fill_phis();
    bind_variables();
    std::vector<NodeId> addresses;
    for (NodeId a : accesses_) addresses.push_back(g_.node(a).inputs[1]);
    // A value may itself be a load of the slot (a[1] = a[0]), replaced
    // before or after: follow the replacements made so far.
    std::unordered_map<NodeId, NodeId> replaced;
    for (auto [load, value] : replacements) {
      for (auto it = replaced.find(value); it != replaced.end(); it = replaced.find(value)) value = it->second;
      if (value == load) value = undefined();  // cannot happen in the son contract (no load feeds itself)
      g_.replace_uses(load, value);
      g_.kill(load);
      replaced[load] = value;
    }
    for (NodeId a : accesses_) {
      if (g_.op(a) != Op::Store) continue;
      NodeId value = g_.node(a).inputs[2];
      g_.replace_uses(a, g_.node(a).inputs[0]);
      g_.kill(a);
      g_.kill_if_unused(value);
    }
    for (NodeId a : addresses) g_.kill_if_unused(a);
    if (undef_ != kNone) g_.kill_if_unused(undef_);
    return true;
  }

 private:
  // The bytes of a scalar debug type (through typedefs and qualifiers), or
  // 0 for an aggregate or a function.
  uint64_t scalar_bytes(int64_t type) const {
    for (size_t steps = 0; type >= 0 && static_cast<size_t>(type) < types_.types.size() && steps < 64; ++steps) {
      const DebugType& t = types_.types[type];
      switch (t.kind) {
        case DebugTypeKind::Base: case DebugTypeKind::Enum: return t.size;
        case DebugTypeKind::Pointer: return 8;
        case DebugTypeKind::Const: case DebugTypeKind::Volatile: case DebugTypeKind::Restrict:
        case DebugTypeKind::Typedef: type = t.type; continue;
        default: return 0;
      }
    }
    return 0;
  }

  // The variables that lived in the slot, each with the fields it binds:
  // a scalar that is the slot's one field binds it whole; a struct or
  // array (its type's bytes within the slot's) binds each field as a piece
  // at the field's offset (DebugBind offset and size, DW_OP_piece).
  void bind_variables() {
    const FunctionDebug& d = g_.function().debug;
    if (d.vars.empty() || fields_.empty()) return;
    const uint64_t slot_bytes = static_cast<uint64_t>(g_.node(slot_).literals[0].as_int());
    std::vector<std::pair<uint32_t, bool>> vars;  // (var, as pieces)
    for (uint32_t v = 0; v < d.vars.size(); ++v) {
      if (d.vars[v].slot != slot_ || d.vars[v].indirect) continue;
      const uint64_t scalar = scalar_bytes(d.vars[v].type);
      if (scalar != 0) {
        if (fields_.size() == 1 && fields_[0].offset == 0 && scalar == type_bytes(*literal_value_type(fields_[0].type)))
          vars.emplace_back(v, false);
      } else if (uint64_t bytes = debug_type_size(types_, d.vars[v].type); bytes != 0 && bytes <= slot_bytes) {
        vars.emplace_back(v, true);
      }
    }
    if (vars.empty()) return;
    std::vector<std::tuple<NodeId, NodeId, size_t>> phis;  // (phi, region, field)
    for (const auto& [key, value] : memo_)
      if (g_.op(key.memory) == Op::Phi && g_.op(value) == Op::Phi && g_.node(value).control == g_.node(key.memory).control &&
          !g_.node(value).control.empty())
        phis.emplace_back(value, g_.node(value).control[0], key.field);
    std::sort(phis.begin(), phis.end());
    phis.erase(std::unique(phis.begin(), phis.end()), phis.end());
    // Stores in memory-chain order: a store's rank is the number of the
    // slot's stores above it in its chain, up to a phi.
    std::vector<std::pair<size_t, NodeId>> stores;
    for (NodeId a : accesses_) {
      if (g_.op(a) != Op::Store) continue;
      size_t rank = 0;
      for (NodeId m = g_.node(a).inputs[0], steps = 0; steps < 4096 && g_.op(m) != Op::Phi; ++steps) {
        if (field_of_.count(m) && g_.op(m) == Op::Store) ++rank;
        NodeId before = g_.op(m) == Op::Store ? g_.node(m).inputs[0] : memory_input_skipping_private(g_, m);
        if (before == kNone) break;
        m = before;
      }
      stores.emplace_back(rank, a);
    }
    std::sort(stores.begin(), stores.end());
    for (const auto& entry : vars) {
      // (named copies: a lambda may not capture a structured binding in C++20)
      const auto v = entry.first;
      const bool pieces = entry.second;
      const uint64_t bytes = pieces ? debug_type_size(types_, d.vars[v].type) : 0;
      // A piece: the field's bytes, when they lie inside the variable.
      auto bind = [&](DebugBind b, size_t field) {
        if (pieces) {
          const uint64_t size = type_bytes(*literal_value_type(fields_[field].type));
          const uint64_t off = static_cast<uint64_t>(fields_[field].offset);
          if (size == 0 || off + size > bytes) return;
          b.offset = static_cast<uint32_t>(off);
          b.size = static_cast<uint32_t>(size);
        }
        g_.add_binding(b);
      };
      for (auto [phi, region, field] : phis) bind(DebugBind{v, phi, region, true}, field);
      for (auto [rank, a] : stores) bind(DebugBind{v, g_.node(a).inputs[2], a, false}, field_of_[a]);
    }
  }

  bool find_fields() {
    std::map<int64_t, Literal> by_offset;
    int64_t slot_size = g_.node(slot_).literals[0].as_int();
    for (NodeId a : accesses_) {
      Address addr = aa_.decompose(g_.node(a).inputs[1]);
      const Literal& type = g_.node(a).literals[0];
      if (addr.root != slot_ || addr.offset < 0 ||
          addr.offset + static_cast<int64_t>(access_size(g_.node(a))) > slot_size)
        return false;
      auto [it, fresh] = by_offset.emplace(addr.offset, type);
      if (!fresh && !(it->second == type)) return false;
    }
    if (by_offset.size() > kMaxFields) return false;
    int64_t end = 0;
    for (const auto& [offset, type] : by_offset) {
      if (offset < end) return false;
      end = offset + static_cast<int64_t>(type_bytes(*literal_value_type(type)));
      field_index_[offset] = fields_.size();
      fields_.push_back({offset, type});
    }
    for (NodeId a : accesses_) field_of_[a] = field_index_[aa_.decompose(g_.node(a).inputs[1]).offset];
    return true;
  }

  // The fields some store writes with a value computed (through at most
  // kUpdateDepth pure nodes) from a load of the same field.
  static constexpr size_t kUpdateDepth = 16;
  void find_updated_fields() {
    updated_.assign(fields_.size(), 0);
    zero_.assign(fields_.size(), kNone);
    for (NodeId a : accesses_) {
      if (g_.op(a) != Op::Store) continue;
      size_t field = field_of_[a];
      std::vector<NodeId> stack = {g_.node(a).inputs[2]};
      for (size_t seen = 0; !stack.empty() && seen < kUpdateDepth && !updated_[field]; ++seen) {
        NodeId v = stack.back();
        stack.pop_back();
        if (g_.op(v) == Op::Load) {
          auto it = field_of_.find(v);
          if (it != field_of_.end() && it->second == field) updated_[field] = 1;
        } else if (g_.has(v, PURE)) {
          for (NodeId in : g_.node(v).inputs) stack.push_back(in);
        }
      }
    }
  }

  // The value of `field` before the first store (see the header comment).
  NodeId initial(size_t field) {
    const Field& f = fields_[field];
    std::optional<ValueType> type = literal_value_type(f.type);
    if (!updated_[field] || !type || is_float(*type)) return undefined();
    if (zero_[field] == kNone) zero_[field] = g_.add_const(*type, 0, g_.node(slot_).loc);
    return zero_[field];
  }

  // The memory input of m when m cannot touch the slot (a store elsewhere,
  // a call, a copy, a volatile access); kNone otherwise.
  NodeId pass_through(NodeId m, size_t field) const {
    const Node& nd = g_.node(m);
    if (nd.op == Op::Store) {
      auto it = field_of_.find(m);
      if (it != field_of_.end() && it->second == field) return kNone;
      return nd.inputs[0];
    }
    return memory_input_skipping_private(g_, m);
  }

  // Whether every memory state above m is one value_at understands. States
  // found so in an earlier walk of this application (for any slot: the
  // answer does not depend on the slot, and replacing a slot only unlinks
  // stores, which the walk passes) are not walked again.
  bool walkable(NodeId m) {
    std::vector<NodeId> stack = {m};
    std::vector<NodeId> visited;
    seen_.start(g_.size());
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      if (walkable_[n] || seen_.seen(n)) continue;
      visited.push_back(n);
      const Node& nd = g_.node(n);
      if (nd.op == Op::Phi) {
        for (NodeId i : nd.inputs) stack.push_back(i);
      } else if (nd.op == Op::Store) {
        stack.push_back(nd.inputs[0]);
      } else if (NodeId before = memory_input_skipping_private(g_, n); before != kNone) {
        stack.push_back(before);
      } else if (nd.op != Op::EntryMem && nd.op != Op::Undef) {
        return false;
      }
    }
    for (NodeId v : visited) walkable_[v] = 1;
    return true;
  }

  NodeId undefined() {
    if (undef_ == kNone) undef_ = g_.add(Node{.op = Op::Undef, .loc = g_.node(slot_).loc});
    return undef_;
  }

  // The value of `field` in memory state m (see the header comment).
  NodeId value_at(size_t field, NodeId m) {
    std::vector<NodeId> passed;
    NodeId value = kNone;
    for (;;) {
      if (auto it = memo_.find({field, m}); it != memo_.end()) {
        value = it->second;
        break;
      }
      passed.push_back(m);
      if (NodeId before = pass_through(m, field); before != kNone) {
        m = before;
        continue;
      }
      const Node& nd = g_.node(m);
      if (nd.op == Op::Store) value = nd.inputs[2];
      else if (nd.op == Op::Phi) value = new_phi(field, m);
      else value = initial(field);
      break;
    }
    for (NodeId p : passed) memo_[{field, p}] = value;
    return value;
  }

  NodeId new_phi(size_t field, NodeId memory_phi) {
    NodeId placeholder = undefined();  // may grow the node array: read memory_phi after
    const Node& mp = g_.node(memory_phi);
    Node phi{.op = Op::Phi, .loc = mp.loc};
    phi.control = mp.control;
    phi.inputs.assign(mp.inputs.size(), placeholder);
    NodeId id = g_.add(std::move(phi));
    memo_[{field, memory_phi}] = id;
    pending_.push_back({id, field, memory_phi});
    return id;
  }

  void fill_phis() {
    while (!pending_.empty()) {
      Pending p = pending_.back();
      pending_.pop_back();
      size_t n = g_.node(p.memory_phi).inputs.size();
      for (size_t i = 0; i < n; ++i) g_.set_input(p.phi, i, value_at(p.field, g_.node(p.memory_phi).inputs[i]));
    }
  }

  struct Key {
    size_t field;
    NodeId memory;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uint64_t>()((uint64_t{k.memory} << 8) ^ k.field); }
  };
  struct Pending {
    NodeId phi;
    size_t field;
    NodeId memory_phi;
  };

  Graph& g_;
  const AliasAnalysis& aa_;
  NodeId slot_;
  std::vector<NodeId> accesses_;
  std::vector<Field> fields_;
  std::map<int64_t, size_t> field_index_;
  std::unordered_map<NodeId, size_t> field_of_;  // access -> field
  std::vector<uint8_t>& walkable_;  // memory state -> known walkable (shared by the application's slots)
  WalkMarks& seen_;                 // the states one walk visited
  std::unordered_map<Key, NodeId, KeyHash> memo_;
  std::vector<Pending> pending_;
  NodeId undef_ = kNone;
  std::vector<uint8_t> updated_;  // field -> a store updates it from its own value
  std::vector<NodeId> zero_;      // field -> its 0, once made
  const ModuleDebug& types_;
};

}  // namespace

size_t scalar_replace(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!has_op(fn, Op::StackSlot)) return 0;
  Graph g(fn, cache);
  std::vector<NodeId> slots;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.alive(n) && g.op(n) == Op::StackSlot) slots.push_back(n);
  size_t changes = 0;
  // One analysis for the application; each slot's escape is rechecked when
  // its turn comes, since replacing another slot may have changed it (a
  // slot whose address was stored in a replaced one). Sweeps repeat over
  // the slots left until one replaces nothing: the slot holding the address
  // may come after the slot whose address it holds, and one application
  // must do all it can (a second sonopt -O2 changes nothing).
  AliasAnalysis aa(g);
  std::vector<uint8_t> walkable;
  WalkMarks seen;
  for (size_t replaced = 1; replaced != 0;) {
    replaced = 0;
    std::vector<NodeId> left;
    for (NodeId slot : slots) {
      if (!g.alive(slot)) continue;
      walkable.resize(g.size(), 0);
      if (aa.recheck_slot(slot) && SlotReplacer(g, aa, slot, walkable, seen, header.debug).run())
        ++replaced;
      else
        left.push_back(slot);
    }
    slots.swap(left);
    changes += replaced;
  }
  g.finish();
  return changes;
}

}  // namespace pl::sonopt
