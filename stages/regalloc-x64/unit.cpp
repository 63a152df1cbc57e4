// unit.cpp - facts about the allocation unit (one function) that every step
// reads: its block graph in region-control order, the block of each node,
// which nodes are values.
#include "regalloc.h"

namespace pl::ra {

bool is_address_node(OpId op) { return op == X64StackSlot || op == X64ArgSlot || op == X64OutArg; }

std::vector<uint32_t> block_index(const Function& fn) {
  std::vector<uint32_t> of(fn.nodes.size(), kNone);
  const std::vector<Block>& blocks = fn.cfg->blocks;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    of[blocks[b].node] = b;
    for (NodeId id : blocks[b].nodes) of[id] = b;
  }
  return of;
}

BlockGraph block_graph(const Function& fn) {
  const std::vector<Block>& blocks = fn.cfg->blocks;
  std::vector<uint32_t> of = block_index(fn);
  BlockGraph g;
  g.succs.resize(blocks.size());
  g.preds.resize(blocks.size());
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    for (NodeId s : blocks[b].successors) g.succs[b].push_back(of[s]);
    if (b == 0) continue;
    for (NodeId c : fn.nodes[blocks[b].node].control) g.preds[b].push_back(of[c]);
  }
  return g;
}

std::vector<uint8_t> value_nodes(const Function& fn) {
  const size_t n = fn.nodes.size();
  std::vector<uint8_t> value(n, 0);
  for (NodeId id = 0; id < n; ++id) {
    const Node& nd = fn.nodes[id];
    if (nd.op >= kNumOps || is_address_node(nd.op)) continue;
    const OpInfo& info = op_info(nd.op);
    if (nd.op == Proj) {
      const Node& x = fn.nodes[nd.inputs[0]];
      std::string_view res = op_info(x.op).results;
      size_t e = static_cast<size_t>(nd.literals[0].as_int());
      value[id] = res.size() > 1 && shape_letter(res, e) == 'v';  // x64:asm: "mv*"
    } else if (nd.op != Phi && nd.op != Undef) {
      value[id] = info.results == "v";
    }
    // An undefined value or a phi is a value when a value input reads it.
    if (x64::is_x64(nd.op))
      for (size_t i = 0; i < nd.inputs.size(); ++i)
        if (shape_letter(info.inputs, i) == 'v') {
          const Node& in = fn.nodes[nd.inputs[i]];
          if (in.op == Phi || in.op == Undef) value[nd.inputs[i]] = 1;
        }
  }
  // Phis joined with values are values (and their undefined inputs).
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeId id = 0; id < n; ++id) {
      const Node& nd = fn.nodes[id];
      if (nd.op != Phi) continue;
      bool any = value[id];
      for (NodeId in : nd.inputs) any = any || value[in];
      if (!any) continue;
      auto mark = [&](NodeId x) {
        if (!value[x] && (fn.nodes[x].op == Phi || fn.nodes[x].op == Undef)) {
          value[x] = 1;
          changed = true;
        }
      };
      mark(id);
      for (NodeId in : nd.inputs) mark(in);
    }
  }
  return value;
}

}  // namespace pl::ra

namespace pl::ra {

// A phi of a block with one predecessor is its input: its users read the
// input instead, and the phi leaves its block (collapse_blocks drops the
// nodes no block holds).
void fold_single_phis(Function& fn) {
  std::vector<NodeId> replace(fn.nodes.size());
  for (NodeId id = 0; id < replace.size(); ++id) replace[id] = id;
  bool any = false;
  for (Block& b : fn.cfg->blocks) {
    if (fn.nodes[b.node].control.size() != 1) continue;
    std::vector<NodeId> kept;
    for (NodeId id : b.nodes) {
      if (fn.nodes[id].op == Phi && fn.nodes[id].inputs.size() == 1) {
        replace[id] = fn.nodes[id].inputs[0];
        any = true;
      } else {
        kept.push_back(id);
      }
    }
    b.nodes = std::move(kept);
  }
  if (!any) return;
  auto resolve = [&](NodeId x) {
    for (size_t steps = 0; replace[x] != x && steps < replace.size(); ++steps) x = replace[x];
    return x;
  };
  for (Node& nd : fn.nodes)
    for (NodeId& in : nd.inputs) in = resolve(in);
}

}  // namespace pl::ra
