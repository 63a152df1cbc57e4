// value_places.cpp - see value_places.h.
#include "value_places.h"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

#include "x64/x64.h"

namespace pl::x64 {

ValuePlaces::ValuePlaces(const Function& fn) : fn_(fn) {
  if (!fn.cfg || fn.cfg->blocks.empty()) return;
  const size_t n = fn.nodes.size();
  projs_.assign(n, {});
  for (NodeId id = 0; id < n; ++id) {
    const Node& nd = fn.nodes[id];
    if (nd.op == Op::Proj && !nd.inputs.empty() && nd.inputs[0] < n) projs_[nd.inputs[0]].push_back(id);
    if (nd.place.is_slot()) locations_ = std::max<size_t>(locations_, 32 + nd.place.slot() + 1);
  }
  find_phi_origins();
  find_bindings();
  if (bound_var_.empty()) return;
  block_of_.assign(n, UINT32_MAX);
  for (uint32_t b = 0; b < fn.cfg->blocks.size(); ++b) block_of_[fn.cfg->blocks[b].node] = b;
  solve();
}

// The bound variables: an unchanged parameter's `value` (an x64:argreg in
// its register, current from the first byte), and every variable with
// bindings none of which is lost (a lost one stands for an assignment whose
// place in the code is not known: after it, no value would be the
// variable's). Each binding takes effect at its position: after the node
// (a memory state), or at the start of the block (a block node).
void ValuePlaces::find_bindings() {
  const FunctionDebug& d = fn_.debug;
  const size_t n = fn_.nodes.size();
  std::vector<char> lost(d.vars.size(), 0), has(d.vars.size(), 0), whole(d.vars.size(), 0), pieces(d.vars.size(), 0);
  for (const DebugBind& b : d.binds) {
    if (b.var >= d.vars.size()) continue;
    if (b.pos == kNoSlot || b.pos >= n) lost[b.var] = 1;
    else has[b.var] = 1;
    (b.piece() ? pieces : whole)[b.var] = 1;
  }
  auto is_argreg = [&](NodeId v) {
    return v < n && fn_.nodes[v].op == Op::X64ArgReg && fn_.nodes[v].place.is_reg();
  };
  bound_at_.assign(n, {});
  // One entry per variable bound whole, one per piece of a variable bound
  // in pieces (in the order the bindings name them).
  std::map<std::tuple<size_t, uint32_t, uint32_t>, uint32_t> index_of;
  auto add = [&](size_t var, uint32_t offset, uint32_t size) {
    auto [it, fresh] = index_of.emplace(std::make_tuple(var, offset, size), static_cast<uint32_t>(bound_var_.size()));
    if (fresh) {
      bound_var_.push_back(var);
      pieces_.push_back({offset, size});
      entry_current_.push_back(kUnknown);
    }
    return it->second;
  };
  for (size_t i = 0; i < d.vars.size(); ++i) {
    const DebugVar& v = d.vars[i];
    const bool by_value = v.value != kNoSlot && is_argreg(v.value);
    if (lost[i] || (!has[i] && !by_value) || (whole[i] && pieces[i]) || (pieces[i] && by_value)) continue;
    if (pieces[i]) {
      for (const DebugBind& b : d.binds)
        if (b.var == i) add(i, b.offset, b.size);
      continue;
    }
    const uint32_t k = add(i, 0, 0);
    if (by_value) entry_current_[k] = v.value;
  }
  for (const DebugBind& b : d.binds) {
    if (b.var >= d.vars.size() || b.pos >= n) continue;
    auto it = index_of.find(std::make_tuple(size_t{b.var}, b.offset, b.size));
    if (it == index_of.end()) continue;
    const uint32_t k = it->second;
    const uint32_t to = b.value < n ? origin(b.value) : kUnknown;
    bound_at_[b.pos].push_back({k, to});
    // A parameter's entry value: in its register from the first byte.
    if (is_argreg(b.value) && d.vars[b.var].param != kDebugNone && !b.piece()) entry_current_[k] = b.value;
  }
}

// A binding at `pos` makes its variable unknown and its value pending
// until the run ends (value_places.h); a kill takes effect at once, and a
// binding to the value the variable has (none pending) changes nothing.
void ValuePlaces::bind_at(NodeId pos, State& s) const {
  if (pos >= bound_at_.size()) return;
  for (auto [k, to] : bound_at_[pos]) {
    if (s[pending(k)] == kNoPending && s[current(k)] == to && to != kUnknown) continue;
    s[current(k)] = kUnknown;
    s[pending(k)] = to;
  }
}

// The end of a run: an effect's code (an instruction with a memory result,
// among its tuple's elements too; not entrymem, which has no code) or a
// terminator.
bool ValuePlaces::ends_run(NodeId n) const {
  const OpId op = fn_.nodes[n].op;
  if (op >= kNumOps) return false;
  return op_info(op).has(TERMINATOR) || (is_x64(op) && op_info(op).results.find('m') != std::string_view::npos);
}

void ValuePlaces::settle(State& s) const {
  for (size_t k = 0; k < bound_var_.size(); ++k)
    if (s[pending(k)] != kNoPending) {
      s[current(k)] = s[pending(k)];
      s[pending(k)] = kNoPending;
    }
}

// The node whose value `n` holds: through copies, and through phis whose
// inputs all hold one origin.
NodeId ValuePlaces::origin(NodeId n) const {
  for (size_t steps = 0; steps <= fn_.nodes.size(); ++steps) {
    const Node& nd = fn_.nodes[n];
    if ((nd.op == Op::X64Mov || nd.op == Op::X64Spill || nd.op == Op::X64Reload) && !nd.inputs.empty()) {
      n = nd.inputs[0];
    } else if (nd.op == Op::Proj && !nd.inputs.empty() && fn_.nodes[nd.inputs[0]].op == Op::X64Xchg) {
      const Node& x = fn_.nodes[nd.inputs[0]];
      size_t e = static_cast<size_t>(nd.literals[0].as_int());
      if (e >= x.inputs.size()) return n;
      n = x.inputs[e];
    } else if (nd.op == Op::Phi && !phi_origin_.empty() && phi_origin_[n] < fn_.nodes.size()) {
      return phi_origin_[n];
    } else {
      return n;
    }
  }
  return n;
}

// Optimistic: every phi starts as "not known yet" (kTop) and falls to one
// origin or to kUnknown; inputs still at kTop (a cycle of phis being
// resolved) and the phi itself do not count.
void ValuePlaces::find_phi_origins() {
  const size_t n = fn_.nodes.size();
  std::vector<NodeId> phis;
  for (NodeId id = 0; id < n; ++id)
    if (fn_.nodes[id].op == Op::Phi && !fn_.nodes[id].place.none()) phis.push_back(id);
  std::vector<NodeId> result(n, kUnknown);
  for (NodeId p : phis) result[p] = kTop;
  phi_origin_ = result;
  bool changed = true;
  while (changed) {
    changed = false;
    for (NodeId p : phis) {
      uint32_t m = kTop;
      for (NodeId in : fn_.nodes[p].inputs) {
        if (in >= n) { m = kUnknown; break; }
        NodeId o = origin(in);  // through copies; a phi gives its current answer
        uint32_t code = o;
        if (fn_.nodes[o].op == Op::Phi) code = phi_origin_[o] == kTop ? kTop : o == p ? kTop : kUnknown;
        if (code == kTop) continue;
        m = m == kTop ? code : m == code ? m : kUnknown;
        if (m == kUnknown) break;
      }
      if (m != phi_origin_[p] && !(phi_origin_[p] == kUnknown)) {
        phi_origin_[p] = m;
        changed = true;
      }
    }
  }
  for (NodeId p : phis)
    if (phi_origin_[p] == kTop) phi_origin_[p] = kUnknown;
}

// Every location `n`'s code writes: its result's place; a tuple's fixed
// result registers, its projs' places and its inputs' places (an exchange
// writes both); its clobbers. A proj writes its place (the tuple wrote it
// first).
template <typename F>
void ValuePlaces::each_write(NodeId n, F f) const {
  const Node& nd = fn_.nodes[n];
  if (nd.op == Op::Proj || nd.op == Op::Undef) {
    if (!nd.place.none()) f(location(nd.place));
    return;
  }
  if (nd.op >= kNumOps || !is_x64(nd.op)) return;  // start, region, jump, phi (at the edges), entrymem
  const Constraints& c = constraints(nd.op);
  for (RegMask m = c.clobbers; m != 0; m &= m - 1) f(static_cast<unsigned>(std::countr_zero(m)));
  std::string_view results = op_info(nd.op).results;
  if (results.size() > 1) {
    for (size_t e = 0; e < c.num_results; ++e)
      if (c.results[e].kind == Fixed::Reg) f(static_cast<unsigned>(c.results[e].reg));
    for (NodeId p : projs_[n])
      if (!fn_.nodes[p].place.none()) f(location(fn_.nodes[p].place));
    for (NodeId in : nd.inputs)
      if (in < fn_.nodes.size() && !fn_.nodes[in].place.none()) f(location(fn_.nodes[in].place));
  }
  if (!nd.place.none()) f(location(nd.place));
}

void ValuePlaces::transfer(NodeId n, State& s) const {
  if (ends_run(n)) settle(s);
  each_write(n, [&](unsigned loc) {
    if (loc < locations_) s[loc] = kUnknown;
  });
  const Node& nd = fn_.nodes[n];
  if (nd.op != Op::Undef && !nd.place.none() &&
      (nd.op == Op::Proj || (nd.op < kNumOps && is_x64(nd.op) && op_info(nd.op).results == std::string_view("v")))) {
    unsigned loc = location(nd.place);
    if (loc < locations_) s[loc] = origin(n);
  }
  // The bindings positioned after n: pending until the run ends (the value
  // is shown once a place holds it, which may be later still: computed
  // after the assignment).
  bind_at(n, s);
}

void ValuePlaces::solve() {
  const std::vector<Block>& blocks = fn_.cfg->blocks;
  const size_t size = locations_ + 2 * bound_var_.size();
  in_.assign(blocks.size(), State(size, kTop));
  State& entry = in_[0];
  std::fill(entry.begin(), entry.end(), kUnknown);
  for (size_t k = 0; k < entry_current_.size(); ++k) {
    entry[current(k)] = entry_current_[k];
    entry[pending(k)] = kNoPending;
  }
  for (NodeId id = 0; id < fn_.nodes.size(); ++id) {
    const Node& nd = fn_.nodes[id];
    if (nd.op == Op::X64ArgReg && nd.place.is_reg()) entry[location(nd.place)] = id;
  }
  State s, e;
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t b = 0; b < blocks.size(); ++b) {
      if (b != 0 && std::all_of(in_[b].begin(), in_[b].end(), [](uint32_t c) { return c == kTop; })) continue;
      s = in_[b];
      bind_at(blocks[b].node, s);
      for (NodeId id : blocks[b].nodes) transfer(id, s);
      settle(s);  // the terminator did (a block without one: its end)
      NodeId term = blocks[b].nodes.empty() ? blocks[b].node : blocks[b].nodes.back();
      for (NodeId succ : blocks[b].successors) {
        if (succ >= block_of_.size() || block_of_[succ] == UINT32_MAX) continue;
        uint32_t to = block_of_[succ];
        const Node& region = fn_.nodes[succ];
        for (size_t k = 0; k < region.control.size(); ++k) {
          if (region.control[k] != term) continue;
          e = s;
          std::vector<std::pair<unsigned, uint32_t>> writes;  // in parallel
          for (NodeId p : blocks[to].nodes) {
            const Node& phi = fn_.nodes[p];
            if (phi.op != Op::Phi) continue;
            if (phi.place.none()) continue;
            writes.emplace_back(location(phi.place), k < phi.inputs.size() ? origin(p) : kUnknown);
          }
          for (auto [loc, code] : writes)
            if (loc < locations_) e[loc] = code;
          for (size_t i = 0; i < e.size(); ++i) {
            uint32_t& into = in_[to][i];
            uint32_t m = into == kTop ? e[i] : into == e[i] ? into : kUnknown;
            if (m != into) {
              into = m;
              changed = true;
            }
          }
        }
      }
    }
  }
}

void ValuePlaces::begin_block(uint32_t b) {
  now_ = b < in_.size() ? in_[b] : State(locations_ + 2 * bound_var_.size(), kUnknown);
  for (uint32_t& c : now_)
    if (c == kTop) c = kUnknown;
  for (size_t k = 0; k < bound_var_.size(); ++k) now_[pending(k)] = kNoPending;
  if (b < fn_.cfg->blocks.size()) bind_at(fn_.cfg->blocks[b].node, now_);
}

// x64:ret's epilogue (frame.cpp emit_epilogue) frees the frame and pops
// the callee-saved registers: those and the spill slots are lost, the
// other registers keep their values up to the ret instruction. Any other
// terminator may move phis on its edges or end in an epilogue: everything.
bool ValuePlaces::writes(NodeId n, Place p) const {
  if (fn_.nodes[n].op == Op::X64Ret) return p.is_slot() || (p.is_reg() && (kCalleeSaved & (RegMask{1} << p.reg())));
  if (writes_everything(n)) return true;
  bool hit = false;
  unsigned want = location(p);
  each_write(n, [&](unsigned loc) { hit |= loc == want; });
  return hit;
}

bool ValuePlaces::writes_everything(NodeId n) const {
  OpId op = fn_.nodes[n].op;
  return op < kNumOps && op != Op::X64Ret && op_info(op).has(TERMINATOR);
}

void ValuePlaces::before(NodeId n) {
  if (ends_run(n)) settle(now_);
}

void ValuePlaces::after(NodeId n) { transfer(n, now_); }

bool ValuePlaces::holds(size_t i, Place p) const {
  const uint32_t o = now_[current(i)];
  const unsigned loc = location(p);
  return o != kUnknown && o != kTop && loc < locations_ && now_[loc] == o;
}

std::optional<Place> ValuePlaces::place_of(size_t i, const std::function<bool(Place)>& usable) const {
  const uint32_t o = now_[current(i)];
  if (o == kUnknown || o == kTop) return std::nullopt;
  for (unsigned loc = 0; loc < locations_; ++loc)
    if (now_[loc] == o && usable(place_at(loc))) return place_at(loc);
  return std::nullopt;
}

}  // namespace pl::x64
