// slots.cpp - the local slots of a cfg-level function (see ssa_build.h).
//
// Slot numbers are `ssa:load`/`ssa:store` literals (any non-negative 64-bit
// integer); they are sorted and numbered densely, so the per-slot tables of
// the later passes are arrays, and every order derived from slots (phis in a
// block, entry undefineds) is by slot number: deterministic.
//
// Per slot, one scan of the blocks in order gives the blocks that store it
// (defs) and those that load it before storing it in the same block
// (upward-exposed uses, the seeds of liveness). A per-slot "last block seen"
// stamp dedupes without clearing anything: O(n log n) for the sort, O(n)
// for the scan.
#include <algorithm>

#include "ir/error.h"
#include "ssa_build.h"
#include "encoding/text_format.h"

namespace pl::ssa {

namespace {

bool is_slot_op(const Node& n) { return n.op == SsaLoad || n.op == SsaStore; }

uint64_t slot_literal(const Function& fn, NodeId id) {
  const Node& n = fn.nodes[id];
  bool ok = n.literals.size() == 1 &&
            (n.literals[0].kind() == Literal::Kind::UInt ||
             (n.literals[0].kind() == Literal::Kind::Int && n.literals[0].as_int() >= 0));
  bool inputs_ok = n.inputs.size() == (n.op == SsaStore ? 1u : 0u);
  if (!ok || !inputs_ok)
    throw FormatError(Where::in(fn.name, node_name(id)),
                      std::string(op_info(n.op).name) + " takes one slot number and " +
                          (n.op == SsaStore ? "one input" : "no input"),
                      print_node_line(fn, id));
  const Literal& lit = n.literals[0];
  return lit.kind() == Literal::Kind::UInt ? lit.as_uint() : static_cast<uint64_t>(lit.as_int());
}

}  // namespace

Slots collect_slots(const Function& fn) {
  Slots s;
  for (NodeId id = 0; id < fn.nodes.size(); ++id)
    if (is_slot_op(fn.nodes[id])) s.numbers.push_back(slot_literal(fn, id));
  std::sort(s.numbers.begin(), s.numbers.end());
  s.numbers.erase(std::unique(s.numbers.begin(), s.numbers.end()), s.numbers.end());
  s.slot_of.assign(fn.nodes.size(), kNone);
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    if (!is_slot_op(fn.nodes[id])) continue;
    uint64_t number = slot_literal(fn, id);
    s.slot_of[id] = static_cast<uint32_t>(std::lower_bound(s.numbers.begin(), s.numbers.end(), number) -
                                          s.numbers.begin());
  }

  const size_t count = s.numbers.size();
  s.defs.resize(count);
  s.uses.resize(count);
  std::vector<uint32_t> stored_in(count, kNone), used_in(count, kNone);
  const std::vector<Block>& blocks = fn.cfg->blocks;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    for (NodeId id : blocks[b].nodes) {
      uint32_t v = s.slot_of[id];
      if (v == kNone) continue;
      if (fn.nodes[id].op == SsaStore) {
        if (stored_in[v] != b) s.defs[v].push_back(b);
        stored_in[v] = b;
      } else if (stored_in[v] != b && used_in[v] != b) {
        s.uses[v].push_back(b);
        used_in[v] = b;
      }
    }
  }
  return s;
}

}  // namespace pl::ssa
