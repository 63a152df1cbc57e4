// slot_kinds.cpp - the one-kind-per-slot rule (FORMAT.md, "Memory at the
// cfg level"): every ssa:store to a slot stores a value, or every one stores
// memory, and every ssa:load of the slot is used where that kind fits.
//
// cfg2ssa relies on it: a phi merges one kind, and an ssa:load's uses get
// the stored node in its place. The verifier gives ssa:load the kind "value
// or memory" and does not check the rule yet, so this pass does, before any
// rewriting, to report a bad slot at its store or use instead of letting the
// output fail verification (which would read as a bug in this stage).
//
// Algorithm: the kind of a stored node comes from the opcode table (a
// proj's from the tuple element it selects); a store of another slot's load
// joins the two slots (union-find over slots, with path halving), since the
// value flows from one to the other. A class's kind is the first concrete
// kind met in node id order; a store of the other kind, or a load used by an
// input whose shape letter wants the other kind, is an error there.
// Linear (near-linear for the union-find).
#include <string>

#include "ir/error.h"
#include "ssa_build.h"
#include "encoding/text_format.h"

namespace pl::ssa {

namespace {

// 'v', 'm', or 0 when the kind is not known here (a load, an undefined, a
// foreign or malformed node; those are the verifier's business).
char result_kind(const Function& fn, NodeId id) {
  const Node& n = fn.nodes[id];
  if (n.op >= kNumOps) return 0;
  std::string_view results = op_info(n.op).results;
  if (n.op == Proj) {
    if (n.inputs.size() != 1 || n.literals.size() != 1 || !n.literals[0].is_int()) return 0;
    const Node& tuple = fn.nodes[n.inputs[0]];
    if (tuple.op >= kNumOps || n.literals[0].kind() != Literal::Kind::Int) return 0;
    results = op_info(tuple.op).results;
    int64_t index = n.literals[0].as_int();
    if (index < 0 || results.size() < 2) return 0;
    char letter = shape_letter(results, static_cast<size_t>(index));  // asm's results repeat: "mv*"
    return letter == 'v' || letter == 'm' ? letter : 0;
  }
  return results == "v" || results == "m" ? results[0] : 0;
}

const char* kind_word(char kind) { return kind == 'm' ? "memory" : "a value"; }

class SlotClasses {
 public:
  explicit SlotClasses(size_t slots) : parent_(slots), kind_(slots, 0), source_(slots, kNone) {
    for (uint32_t v = 0; v < slots; ++v) parent_[v] = v;
  }
  uint32_t find(uint32_t v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  void join(uint32_t a, uint32_t b) { parent_[find(a)] = find(b); }
  char& kind(uint32_t v) { return kind_[find(v)]; }
  NodeId& source(uint32_t v) { return source_[find(v)]; }

 private:
  std::vector<uint32_t> parent_;
  std::vector<char> kind_;
  std::vector<NodeId> source_;  // the store that fixed the class's kind
};

[[noreturn]] void fail(const Function& fn, NodeId id, const std::string& message) {
  throw FormatError(Where::in(fn.name, node_name(id)), message, print_node_line(fn, id));
}

void check_stores(const Function& fn, const Slots& slots, SlotClasses& classes) {
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    if (fn.nodes[id].op != SsaStore) continue;
    uint32_t from = slots.slot_of[fn.nodes[id].inputs[0]];
    if (from != kNone && fn.nodes[fn.nodes[id].inputs[0]].op == SsaLoad) classes.join(from, slots.slot_of[id]);
  }
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    if (fn.nodes[id].op != SsaStore) continue;
    char k = result_kind(fn, fn.nodes[id].inputs[0]);
    if (k == 0) continue;
    uint32_t slot = slots.slot_of[id];
    if (classes.kind(slot) == 0) {
      classes.kind(slot) = k;
      classes.source(slot) = id;
    } else if (classes.kind(slot) != k) {
      fail(fn, id, "this ssa:store stores " + std::string(kind_word(k)) + " in slot " +
                       std::to_string(slots.numbers[slot]) + ", which holds " + kind_word(classes.kind(slot)) +
                       " (stored by " + node_name(classes.source(slot)) + "): a slot holds one kind");
    }
  }
}

void check_load_uses(const Function& fn, const Slots& slots, SlotClasses& classes) {
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    const Node& n = fn.nodes[id];
    if (n.op >= kNumOps || n.op == SsaStore) continue;
    std::string_view shape = op_info(n.op).inputs;
    for (size_t j = 0; j < n.inputs.size(); ++j) {
      NodeId in = n.inputs[j];
      if (fn.nodes[in].op != SsaLoad) continue;
      char held = classes.kind(slots.slot_of[in]);
      char wanted = shape_letter(shape, j);
      if (held == 0 || (wanted != 'v' && wanted != 'm') || wanted == held) continue;
      fail(fn, id, "input " + std::to_string(j) + " is " + node_name(in) + ", a read of slot " +
                       std::to_string(slots.numbers[slots.slot_of[in]]) + ", which holds " + kind_word(held) +
                       "; expected " + kind_word(wanted));
    }
  }
}

}  // namespace

void check_slot_kinds(const Function& fn, const Slots& slots) {
  SlotClasses classes(slots.numbers.size());
  check_stores(fn, slots, classes);
  check_load_uses(fn, slots, classes);
}

}  // namespace pl::ssa
