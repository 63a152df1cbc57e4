// save_emission.cpp - seed 001, "Save Emission", with the System V
// departure.
//
// The seed walks each block backwards and marks a value "save required"
// when it is live through a call, because Stanza treats every register as
// caller-saved: such a value is saved to its slot when defined and loaded
// after the call. Our code is called by C and must keep rbx, rbp and r12-r15
// for its caller, so those registers survive our own calls too. Departure:
// values live across a call go to callee-saved registers first
// (values_across_calls gives the assignment that preference; not for a
// cold call, cold_call_blocks: a value live only across one of those is
// saved around it on that rare path); a value is
// saved to a slot only when they run out (the assignment spills what a call
// would clobber and finds no callee-saved register for). Each callee-saved
// register the function uses is saved once, in the prologue, and restored
// before every return (emit_callee_saves): x64:entryreg takes the caller's
// value, x64:spill saves it, x64:reload restores it; the checker proves the
// restore. A callee-saved register an x64:asm clobbers (its literal) counts
// as used.
//
// Needs: usage lists and liveness (values_across_calls); an assigned
// function (emit_callee_saves).
#include <algorithm>

#include "regalloc.h"

namespace pl::ra {

std::vector<uint8_t> calling_blocks(const Function& fn) {
  std::vector<uint8_t> calls(fn.cfg->blocks.size(), 0);
  for (uint32_t b = 0; b < calls.size(); ++b)
    for (NodeId id : fn.cfg->blocks[b].nodes)
      if (fn.nodes[id].op == X64Call || fn.nodes[id].op == X64CallInd) calls[b] = 1;
  return calls;
}

std::vector<uint8_t> cold_call_blocks(const Function& fn, const x64::ColdCallees& cold_callees) {
  std::vector<uint8_t> cold(fn.cfg->blocks.size(), 0);
  for (uint32_t b = 0; b < cold.size(); ++b)
    for (NodeId id : fn.cfg->blocks[b].nodes)
      if (cold_callees.is_cold_call(fn.nodes[id])) cold[b] = 1;
  return cold;
}

std::vector<uint8_t> values_across_calls(const Function& fn, const Usage& u, const Liveness& l,
                                         const std::vector<uint8_t>& is_value, const std::vector<uint8_t>& cold) {
  std::vector<uint8_t> across(fn.nodes.size(), 0);
  std::vector<uint8_t> live(fn.nodes.size(), 0);
  const std::vector<Block>& blocks = fn.cfg->blocks;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    if (cold[b]) continue;
    std::vector<NodeId> live_list;
    for (const auto& [v, d] : l.live_out[b]) {
      live[v] = 1;
      live_list.push_back(v);
    }
    for (size_t i = blocks[b].nodes.size(); i-- > 0;) {
      NodeId id = blocks[b].nodes[i];
      const Node& nd = fn.nodes[id];
      live[id] = 0;
      if (nd.op < kNumOps && op_info(nd.op).has(CALL))
        for (NodeId v : live_list)
          if (live[v]) across[v] = 1;
      if (nd.op == Phi) continue;
      for (NodeId in : nd.inputs)
        if (is_value[in] && !live[in]) {
          live[in] = 1;
          live_list.push_back(in);
        }
    }
    for (NodeId v : live_list) live[v] = 0;
  }
  (void)u;
  return across;
}

void emit_callee_saves(Function& fn, uint32_t& next_slot) {
  x64::RegMask used = 0;
  for (const Node& nd : fn.nodes) {
    if (nd.place.is_reg()) used |= x64::RegMask{1} << nd.place.reg();
    if (nd.op == X64Asm) used |= x64::node_constraints(nd).clobbers;  // an asm's clobbered rbx: saved too
  }
  used &= x64::kCalleeSaved;
  if (!used) return;
  Cfg& cfg = *fn.cfg;
  std::vector<std::pair<x64::Reg, NodeId>> saves;  // register, its spill
  std::vector<NodeId> prologue;
  for (unsigned r = 0; r < 16; ++r) {
    if (!(used & (x64::RegMask{1} << r))) continue;
    const x64::Reg reg = static_cast<x64::Reg>(r);
    Node take;
    take.op = X64EntryReg;
    take.control = {cfg.blocks[0].node};
    take.literals = {Literal::string(std::string(x64::reg_name(reg)))};
    take.place = x64::place_of(reg);
    fn.nodes.push_back(std::move(take));
    NodeId t = static_cast<NodeId>(fn.nodes.size() - 1);
    Node save;
    save.op = X64Spill;
    save.inputs = {t};
    save.place = Place::slot(next_slot++);
    fn.nodes.push_back(std::move(save));
    NodeId s = static_cast<NodeId>(fn.nodes.size() - 1);
    prologue.push_back(t);
    prologue.push_back(s);
    saves.emplace_back(reg, s);
  }
  std::vector<NodeId>& entry = cfg.blocks[0].nodes;
  entry.insert(entry.begin(), prologue.begin(), prologue.end());
  for (Block& block : cfg.blocks) {
    if (block.nodes.empty() || fn.nodes[block.nodes.back()].op != X64Ret) continue;
    std::vector<NodeId> restores;
    for (auto [reg, s] : saves) {
      Node load;
      load.op = X64Reload;
      load.inputs = {s};
      load.place = x64::place_of(reg);
      load.loc = fn.nodes[block.nodes.back()].loc;
      fn.nodes.push_back(std::move(load));
      restores.push_back(static_cast<NodeId>(fn.nodes.size() - 1));
    }
    block.nodes.insert(block.nodes.end() - 1, restores.begin(), restores.end());
  }
}

}  // namespace pl::ra
