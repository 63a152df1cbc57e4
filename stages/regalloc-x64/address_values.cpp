// address_values.cpp - an address node (x64:stackslot, x64:argslot,
// x64:outarg) has no register at ra-x64: the code generator folds it into
// the addresses that use it as their base ([rsp + offset]). Any other use
// (a call argument, a value stored to memory, a compare) reads the address
// as a value, so it gets an `x64:lea "ptr", 0, 0` of the node, placed just
// before the user (or at the end of the predecessor for a phi input).
// Not a section of seed 001 (its stack values are variables, not nodes);
// it runs before the allocation so that every value the allocator sees
// lives in a register or slot.
//
// Needs: a cfg-x64 function. Keeps it one (the lea is pure, its input an
// address node defined in block 0).
#include "regalloc.h"

namespace pl::ra {

namespace {

bool is_base_input(const Node& user, size_t i) {
  if (!x64::is_x64(user.op)) return false;
  const x64::Constraints& c = x64::constraints(user.op);
  if (c.address_input < 0 || i != static_cast<size_t>(c.address_input)) return false;
  return static_cast<size_t>(c.address_literal) + 2 >= user.literals.size();  // no symbol: a base
}

NodeId new_lea(Function& fn, NodeId address) {
  Node lea;
  lea.op = X64Lea;
  lea.literals = {Literal::string("ptr"), Literal::integer(0), Literal::integer(0)};
  lea.inputs = {address};
  lea.loc = fn.nodes[address].loc;
  fn.nodes.push_back(std::move(lea));
  return static_cast<NodeId>(fn.nodes.size() - 1);
}

}  // namespace

void materialize_addresses(Function& fn) {
  Cfg& cfg = *fn.cfg;
  const BlockGraph g = block_graph(fn);
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    std::vector<NodeId> out;
    std::vector<NodeId> at_end;  // leas for phi inputs of successors
    for (NodeId id : cfg.blocks[b].nodes) {
      const size_t n_inputs = fn.nodes[id].inputs.size();
      if (fn.nodes[id].op != Phi) {
        for (size_t i = 0; i < n_inputs; ++i) {
          NodeId in = fn.nodes[id].inputs[i];
          if (!is_address_node(fn.nodes[in].op) || is_base_input(fn.nodes[id], i)) continue;
          NodeId lea = new_lea(fn, in);
          fn.nodes[id].inputs[i] = lea;
          out.push_back(lea);
        }
      }
      out.push_back(id);
    }
    cfg.blocks[b].nodes = std::move(out);
  }
  // Phi inputs: the lea at the end of the predecessor, before its jump.
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (NodeId id : std::vector<NodeId>(cfg.blocks[b].nodes)) {
      if (fn.nodes[id].op != Phi) break;
      for (size_t k = 0; k < fn.nodes[id].inputs.size() && k < g.preds[b].size(); ++k) {
        NodeId in = fn.nodes[id].inputs[k];
        if (!is_address_node(fn.nodes[in].op)) continue;
        NodeId lea = new_lea(fn, in);
        fn.nodes[id].inputs[k] = lea;
        std::vector<NodeId>& pred = cfg.blocks[g.preds[b][k]].nodes;
        pred.insert(pred.end() - 1, lea);
      }
    }
}

}  // namespace pl::ra
