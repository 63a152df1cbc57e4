// sibling_calls.cpp - which x64:ret nodes become a sibling call's jump; see
// sibling_calls.h.
#include "sibling_calls.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "x64/x64.h"

namespace pl::x64 {

namespace {

bool returns_twice(std::string_view name) {
  while (!name.empty() && name.front() == '_') name.remove_prefix(1);
  return name == "setjmp" || name == "sigsetjmp" || name == "savectx" || name == "vfork" || name == "getcontext";
}

bool is_frame_address(OpId op) { return op == X64StackSlot || op == X64ArgSlot; }

// May a callee see or need this function's frame (sibling_calls.h)?
bool frame_reachable(const Function& fn) {
  if (fn.attrs.hints & kHintStackProtect) return true;
  for (const Node& nd : fn.nodes) {
    if (nd.op == X64OutArg || nd.op == X64Alloca || nd.op == X64StackSave) return true;
    // A 16-byte vector argument or result goes through the outgoing area,
    // which the epilogue gives up (x64:call's vector pairs).
    if (nd.op == X64Call || nd.op == X64CallInd) {
      CallVectors v = call_vectors(nd);
      if (v.arg_mask != 0 || v.has_result) return true;
    }
    if (nd.op == X64Call && !nd.literals.empty() && nd.literals[0].kind() == Literal::Kind::String &&
        returns_twice(nd.literals[0].as_string()))
      return true;
    if (nd.op >= kNumOps) continue;
    const int address_input = is_x64(nd.op) ? constraints(nd.op).address_input : -1;
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      if (nd.inputs[i] >= fn.nodes.size() || !is_frame_address(fn.nodes[nd.inputs[i]].op)) continue;
      // Only as the base of a memory operand: an x64:lea makes it a value.
      if (nd.op == X64Lea || address_input < 0 || static_cast<int>(i) < address_input) return true;
    }
  }
  return false;
}

// An x64:reload that restores a callee-saved register from the prologue's
// save of its x64:entryreg.
bool is_restore(const Function& fn, const Node& nd) {
  if (nd.op != X64Reload || nd.inputs.size() != 1) return false;
  const Node& save = fn.nodes[nd.inputs[0]];
  if (save.op != X64Spill || save.inputs.size() != 1) return false;
  const Node& entry = fn.nodes[save.inputs[0]];
  return entry.op == X64EntryReg && entry.place == nd.place && nd.place.is_reg() &&
         (kCalleeSaved & reg_bit(reg_of(nd.place)));
}

bool is_proj_of(const Node& nd, NodeId tuple, int64_t k) {
  return nd.op == Proj && nd.inputs.size() == 1 && nd.inputs[0] == tuple && !nd.literals.empty() &&
         nd.literals[0].kind() == Literal::Kind::Int && nd.literals[0].as_int() == k;
}

// The call C ending `nodes` (C, then only its projs and restores, then
// `last`): C's index in `nodes`, or none.
std::optional<size_t> call_before(const Function& fn, const std::vector<NodeId>& nodes) {
  size_t i = nodes.size() - 1;
  while (i > 0 && (fn.nodes[nodes[i - 1]].op == Proj || is_restore(fn, fn.nodes[nodes[i - 1]]))) --i;
  if (i == 0) return std::nullopt;
  const NodeId call = nodes[i - 1];
  const Node& c = fn.nodes[call];
  if (c.op != X64Call && c.op != X64CallInd) return std::nullopt;
  for (size_t k = i; k + 1 < nodes.size(); ++k)  // the projs between are the call's
    if (fn.nodes[nodes[k]].op == Proj && fn.nodes[nodes[k]].inputs[0] != call) return std::nullopt;
  if (c.op == X64CallInd) {  // the callee's register survives the epilogue
    const Place p = fn.nodes[c.inputs[1]].place;
    if (!p.is_reg() || ((kCalleeSaved | reg_bit(Reg::R11)) & reg_bit(reg_of(p)))) return std::nullopt;
  }
  return i - 1;
}

// Does the x64:ret `ret` return what `call` returned? Its inputs are read
// through the phis of its block at `edge` (the return block's region
// control the call's block jumps from), or directly (edge < 0); a phi's
// value must already be in the phi's place.
bool returns_result(const Function& fn, const Node& ret, NodeId call, int edge) {
  auto through = [&](NodeId v) {
    const Node& nd = fn.nodes[v];
    if (edge < 0 || nd.op != Phi) return v;
    NodeId in = static_cast<size_t>(edge) < nd.inputs.size() ? nd.inputs[static_cast<size_t>(edge)] : v;
    return fn.nodes[in].place == nd.place ? in : v;
  };
  if (ret.inputs.empty() || !is_proj_of(fn.nodes[through(ret.inputs[0])], call, 0)) return false;
  const uint64_t mask = ret_xmm_mask(ret);
  if (ret.inputs.size() == 2) return mask <= 1 && is_proj_of(fn.nodes[through(ret.inputs[1])], call, mask ? 3 : 1);
  return ret.inputs.size() == 1;
}

// Block b ends with the call at `at`, its projs and a jump to `target`, a
// block of phis (which only the x64:ret reads), restores and an x64:ret
// that returns the call's result.
bool jumps_to_return(const Function& fn, const Block& b, size_t at,
                     const std::unordered_map<NodeId, const Block*>& block_of, NodeId target) {
  auto it = block_of.find(target);
  if (it == block_of.end()) return false;
  const Block& rb = *it->second;
  if (rb.nodes.empty() || fn.nodes[rb.nodes.back()].op != X64Ret) return false;
  for (size_t k = at + 1; k + 1 < b.nodes.size(); ++k)
    if (fn.nodes[b.nodes[k]].op != Proj) return false;
  const Node& ret = fn.nodes[rb.nodes.back()];
  const auto& controls = fn.nodes[rb.node].control;
  auto e = std::find(controls.begin(), controls.end(), b.nodes.back());
  if (e == controls.end()) return false;
  for (size_t k = 0; k + 1 < rb.nodes.size(); ++k) {
    const NodeId n = rb.nodes[k];
    const Node& nd = fn.nodes[n];
    bool fed = nd.op == Phi && std::find(ret.inputs.begin(), ret.inputs.end(), n) != ret.inputs.end();
    if (!fed && nd.op != Region && !is_restore(fn, nd)) return false;
  }
  return returns_result(fn, ret, b.nodes[at], static_cast<int>(e - controls.begin()));
}

}  // namespace

std::unordered_map<NodeId, NodeId> find_sibling_calls(const Function& fn) {
  std::unordered_map<NodeId, NodeId> out;
  if (!fn.cfg || frame_reachable(fn)) return out;
  std::unordered_map<NodeId, const Block*> block_of;
  for (const Block& b : fn.cfg->blocks) block_of.emplace(b.node, &b);
  for (const Block& b : fn.cfg->blocks) {
    if (b.nodes.empty()) continue;
    const NodeId term = b.nodes.back();
    const Node& t = fn.nodes[term];
    if (t.op != X64Ret && t.op != Jump) continue;
    std::optional<size_t> at = call_before(fn, b.nodes);
    if (!at) continue;
    const NodeId call = b.nodes[*at];
    if (t.op == X64Ret) {
      if (returns_result(fn, t, call, -1)) out.emplace(term, call);
      continue;
    }
    if (b.successors.size() == 1 && jumps_to_return(fn, b, *at, block_of, b.successors[0]))
      out.emplace(term, call);
  }
  return out;
}

}  // namespace pl::x64
