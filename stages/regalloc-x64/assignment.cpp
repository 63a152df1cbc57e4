// assignment.cpp - seed 001, "Class Allocation", "Assumption Propagation"
// and "Register Assignment" (for a single block and for a program unit),
// done in one walk per block.
//
// Algorithm. Blocks are visited in reverse postorder (the seed's
// assign-regs / assign-successors recursion, flattened: a block's entry
// locations are known when its first predecessor is done), the arm of a
// two-way branch that makes no call before one that does
// (call_free_arms_first). The state is
// the seed's layer 1: for each value (an SSA node of the input), the node
// that now holds it in a register and the node that now holds it in its
// slot, and for each register the value it holds. Each instruction, in
// order (the seed's five steps for `(xs ...) = op(ys ...)`):
//  1. inputs: fixed-register inputs first (division in rax/rdx, shift counts
//     in rcx, call arguments in rdi, rsi, ..., return values in rax/rdx),
//     by a move, an exchange (the seed's swap-reg, when the register holds
//     another live value and the input sits in a register too) or a reload;
//     an input whose fixed register the instruction destroys (a call
//     argument, a dividend) and that lives on is copied there and stays
//     where it is; then inputs in any register (reloaded if spilled) outside
//     the registers the node's literals forbid (x64::forbidden_input_regs:
//     the callee of a variadic indirect call moves out of rax, and prefers
//     r11 when it is defined);
//  2. a tied input (two-address form) that lives on stays where it is and
//     the instruction overwrites a copy of it, made in the register the
//     result gets (so a loop-carried value keeps its register); only when
//     the result is wanted in the tied input's own register (its hint, see
//     below) does the input move instead. A commutative instruction whose
//     input 0 lives on and input 1 dies swaps them first: no copy at all;
//     an add becomes a lea instead of copying (to_three_address);
//  3. registers the instruction destroys (its clobbers and fixed results: a
//     call destroys every caller-saved register) are emptied: a value that
//     lives on moves to a free register (a callee-saved one at a call: the
//     System V departure of save_emission.cpp) or is spilled;
//  4. released values (last use here) free their registers;
//  5. the result gets its register: the tied input's, the fixed one, its
//     hint when free, or a free one; when none is free, the value whose next use is furthest is
//     spilled (the seed's class allocation spills by furthest next use, as
//     Belady; done here at the moment of need rather than in a separate
//     counting pass, because x86's fixed registers make a count alone
//     unable to say which value must go).
// A flags producer is emitted right before its user (jcc, setcc, cmov), with
// every move of the pair before both: flags are never spilled. An
// x64:flagsof is such a producer whose input is not read (regs `-`): the
// instruction whose flags it names stays just before the pair's moves, so
// only copies come between, and never becomes a lea (to_three_address).
// Block boundaries (assumption propagation): a block with one predecessor
// starts in that predecessor's final state. A merge's entry locations are
// set by the first predecessor done (each live value where it is, at most
// 14 in registers; each phi in its input's register if free, else another,
// else a slot; a value or phi that lives across a call and would sit in a
// caller-saved register takes a free callee-saved one instead, so a loop
// around a call moves it once, on entry, not around every call; at a loop
// header whose loop needs more registers than there are, values live
// through the loop and unused in it wait in their slots: values_to_park),
// and every predecessor ends with a parallel move into them
// (edge_moves.cpp); a constant a merge wants that the predecessor holds
// nowhere is made anew after that move (in its register, or in one the move
// does not write and stored into its slot). Hints (phi coalescing, a departure: the seed leaves
// moves to its later passes): a value read in a fixed register (a call
// argument, a dividend, a return value) prefers that register, and when a
// merge's phi gets a register, its inputs on the other edges prefer it too,
// as does a phi whose value flows on into another phi; so the back edge of
// a loop mostly needs no move. Every value live into a merge gets a phi there
// (the value may be in another node on each edge); collapse.cpp removes
// those that merge one node.
//
// Needs: critical edges split (a merge's predecessors have one successor),
// address nodes used only as address bases (address_values.cpp), the
// cfg-x64 contract (flags producers right before their users). Produces an
// ra-x64 function with virtual slots (one per spilled value or phi).
#include <algorithm>
#include <array>
#include <span>
#include <stdexcept>

#include "regalloc.h"

namespace pl::ra {

namespace {

using x64::Reg;
constexpr unsigned kRegs = x64::kNumRegs;  // 16 general and 16 xmm registers
constexpr unsigned kMaxEntryRegs = 14;
// Values of one class live into a loop header above which the constants of
// that class the loop does not use are not held in registers through it
// (decide_entry): above 12 of the 14 registers, the loop body is left less
// than two for its temporaries. (10 cost divmod 6% more instructions,
// dropping constants that fit; 12 changes only the loops that run out.)
constexpr size_t kLoopRematLimit = 12;
constexpr Reg kShortLived[] = {Reg::Rax, Reg::Rcx, Reg::Rdx, Reg::Rsi, Reg::Rdi, Reg::R8,  Reg::R9, Reg::R10,
                               Reg::R11, Reg::Rbx, Reg::R12, Reg::R13, Reg::R14, Reg::R15, Reg::Rbp};
constexpr Reg kAcrossCalls[] = {Reg::Rbx, Reg::R12, Reg::R13, Reg::R14, Reg::R15, Reg::Rbp, Reg::Rax, Reg::Rcx,
                                Reg::Rdx, Reg::Rsi, Reg::Rdi, Reg::R8,  Reg::R9,  Reg::R10, Reg::R11};
// The xmm class (f32, f64 values): every register is caller-saved (System
// V), so one order serves values short-lived and living across calls (a
// call spills those: step 3).
constexpr Reg kXmmOrder[] = {Reg::Xmm0,  Reg::Xmm1,  Reg::Xmm2,  Reg::Xmm3,  Reg::Xmm4,  Reg::Xmm5,
                             Reg::Xmm6,  Reg::Xmm7,  Reg::Xmm8,  Reg::Xmm9,  Reg::Xmm10, Reg::Xmm11,
                             Reg::Xmm12, Reg::Xmm13, Reg::Xmm14, Reg::Xmm15};
// A function with a dynamic stack keeps rbp as its frame pointer (x64.h
// has_dynamic_stack): the same orders without it (rbp is last in
// kShortLived, sixth in kAcrossCalls).
constexpr Reg kAcrossCallsNoRbp[] = {Reg::Rbx, Reg::R12, Reg::R13, Reg::R14, Reg::R15, Reg::Rax, Reg::Rcx,
                                     Reg::Rdx, Reg::Rsi, Reg::Rdi, Reg::R8,  Reg::R9,  Reg::R10, Reg::R11};
using RegClass = x64::RegClass;
std::span<const Reg> class_order(RegClass c, bool across, bool frame_pointer) {
  if (c == RegClass::Xmm) return kXmmOrder;
  if (frame_pointer)
    return across ? std::span<const Reg>(kAcrossCallsNoRbp) : std::span<const Reg>(kShortLived).first(14);
  return across ? std::span<const Reg>(kAcrossCalls) : std::span<const Reg>(kShortLived);
}

using RegSet = uint32_t;
RegSet bit(Reg r) { return RegSet{1} << static_cast<unsigned>(r); }
RegSet bit(unsigned r) { return RegSet{1} << r; }
bool callee_saved(Reg r) { return (x64::kCalleeSaved & x64::reg_bit(r)) != 0; }

// Where a value is at a block boundary.
struct Held {
  NodeId value, reg_node, slot_node;
};
struct Snapshot {
  std::vector<Held> values;
};

// A merge block's entry locations (the seed's port assumptions).
struct Entry {
  bool set = false;
  std::vector<std::pair<NodeId, Place>> live;  // live-in value -> place (sorted by value)
  std::vector<NodeId> live_phis;               // the phi made for each live-in value
  std::vector<std::pair<NodeId, Place>> phis;  // value phi of the block -> its place
};

class Assigner {
 public:
  Assigner(Function& fn, Stats& stats, bool frame_pointer, const x64::ColdCallees& cold)
      : fn_(fn), stats_(stats), frame_pointer_(frame_pointer), orig_(fn.cfg->blocks),
        n_orig_(static_cast<NodeId>(fn.nodes.size())), cold_callees_(cold) {}

  uint32_t run() {
    frame_pointer_ = frame_pointer_ || x64::has_dynamic_stack(fn_);
    graph_ = block_graph(fn_);
    is_value_ = value_nodes(fn_);
    class_ = x64::value_classes(fn_);
    vec_ = x64::v128_values(fn_);
    has_vec_ = std::find(vec_.begin(), vec_.end(), 1) != vec_.end();
    usage_ = compute_usage(fn_, is_value_);
    live_ = compute_liveness(fn_, graph_, usage_, is_value_);
    releases_ = compute_releases(fn_, usage_, live_);
    cold_ = cold_call_blocks(fn_, cold_callees_);
    across_ = values_across_calls(fn_, usage_, live_, is_value_, cold_);
    // Constants do not take callee-saved registers: a call drops them.
    for (NodeId v = 0; v < n_orig_; ++v)
      if (remat(v)) across_[v] = 0;
    DomTree tree = compute_dom_tree(call_free_arms_first(graph_), false);
    rpo_index_ = tree.rpo_index;
    reg_node_.assign(n_orig_, kNone);
    slot_node_.assign(n_orig_, kNone);
    home_.assign(n_orig_, kNone);
    phi_hint_.assign(n_orig_, kNone);
    fixed_hint_.assign(n_orig_, kNone);
    readers_.assign(n_orig_, 0);
    for (NodeId id = 0; id < n_orig_; ++id)
      for (NodeId in : node(id).inputs)
        if (in < n_orig_ && readers_[in] < 2) ++readers_[in];
    hint_fixed_uses();
    flags_definer_.assign(n_orig_, 0);
    for (NodeId id = 0; id < n_orig_; ++id)
      if (node(id).op == X64FlagsOf) flags_definer_[node(id).inputs[0]] = 1;
    owner_.fill(kNone);
    done_.assign(n_orig_, 0);
    exit_.resize(orig_.size());
    entry_.resize(orig_.size());
    out_blocks_.resize(orig_.size());
    for (uint32_t b : tree.rpo) assign_block(b);
    for (uint32_t b = 0; b < orig_.size(); ++b) {
      out_blocks_[b].insert(out_blocks_[b].begin(), orig_[b].nodes.begin(),
                            orig_[b].nodes.begin() + static_cast<long>(leading_phis(b)));
      fn_.cfg->blocks[b].nodes = std::move(out_blocks_[b]);
    }
    return next_slot_;
  }

 private:
  // The graph with each two-way branch's successors ordered so that an arm
  // that makes no call comes before one that does in reverse postorder (a
  // depth-first search explores the call's arm first): the merge after them
  // then takes its entry locations from the call-free arm, the one that
  // usually runs (sqrt's errno call, an error path), instead of the state
  // after a call, where every value lives in a callee-saved register or
  // its slot. Dominators are the same in any order.
  BlockGraph call_free_arms_first(BlockGraph g) const {
    const std::vector<uint8_t> calls = calling_blocks(fn_);
    for (auto& succs : g.succs)
      if (succs.size() == 2 && calls[succs[1]] && !calls[succs[0]]) std::swap(succs[0], succs[1]);
    return g;
  }

  // ---- node helpers ----
  const Node& node(NodeId id) const { return fn_.nodes[id]; }
  Place place_of_node(NodeId id) const { return fn_.nodes[id].place; }
  Reg reg_of_node(NodeId id) const { return x64::reg_of(fn_.nodes[id].place); }
  size_t leading_phis(uint32_t b) const {
    size_t k = 0;
    while (k < orig_[b].nodes.size() && node(orig_[b].nodes[k]).op == Phi) ++k;
    return k;
  }

  // An assertion failed: names the function, the block, the instruction
  // being placed and what could not be met.
  [[noreturn]] void fail(const std::string& what) const {
    std::string where = "regalloc-x64: function '" + fn_.name + "': b" + std::to_string(block_);
    if (at_ != kNone) where += ": i" + std::to_string(at_) + " (" + std::string(op_info(node(at_).op).name) + ")";
    throw std::logic_error(where + ": " + what);
  }
  static std::string value_name(NodeId v) { return v == kNone ? "a value" : "i" + std::to_string(v); }
  std::string describe_regs(RegSet regs) const {
    std::string out;
    for (unsigned r = 0; r < kRegs; ++r) {
      if (!(regs & bit(r))) continue;
      if (!out.empty()) out += ", ";
      out += x64::reg_name(static_cast<Reg>(r));
      if (owner_[r] != kNone) out += " " + value_name(owner_[r]);
    }
    return out;
  }

  NodeId emit(Node n, Place p) {
    n.place = p;
    fn_.nodes.push_back(std::move(n));
    NodeId id = static_cast<NodeId>(fn_.nodes.size() - 1);
    out_blocks_[block_].push_back(id);
    return id;
  }
  NodeId emit_copy(Op op, NodeId from, Place p) {
    if (from == kNone) fail("a copy of a value that is in no place");
    Node n;
    n.op = op;
    n.inputs = {from};
    n.loc = loc_;
    if (op == X64Mov) ++stats_.moves;
    if (op == X64Spill) ++stats_.spills;
    if (op == X64Reload) ++stats_.reloads;
    return emit(std::move(n), p);
  }

  // ---- the state (the seed's layer 1) ----
  void put_reg(NodeId v, NodeId holder, Reg r) {
    drop_reg(v);
    if (owner_[static_cast<unsigned>(r)] != kNone) drop_reg(owner_[static_cast<unsigned>(r)]);
    owner_[static_cast<unsigned>(r)] = v;
    reg_node_[v] = holder;
    touched_.push_back(v);
  }
  void drop_reg(NodeId v) {
    if (reg_node_[v] == kNone) return;
    owner_[static_cast<unsigned>(reg_of_node(reg_node_[v]))] = kNone;
    reg_node_[v] = kNone;
  }
  bool in_reg(NodeId v) const { return reg_node_[v] != kNone; }
  Reg reg_of(NodeId v) const { return reg_of_node(reg_node_[v]); }
  uint32_t next(NodeId v, uint32_t pos) const { return next_use(fn_, usage_, live_, block_, v, pos); }
  bool lives_after(NodeId v) const { return next(v, pos_ + 1) != kFar; }

  Place home(NodeId v) {
    if (home_[v] == kNone) {
      home_[v] = next_slot_;
      next_slot_ += vec_[v] ? 2 : 1;  // a 16-byte vector takes sN and sN+1 (x64.h v128_values)
    }
    return Place::slot(home_[v]);
  }
  // Rematerialization (a departure from the seed, which spills every
  // value): a constant (x64:movi, x64:fconst, x64:fzero, or x64:lea of a
  // symbol alone) that must leave its register is not spilled; where it is
  // needed again, a copy of its instruction makes it anew. It has no slot,
  // and a merge takes it only if it is in a register when the merge's
  // locations are decided. It never prefers a callee-saved register (a
  // call may simply drop it).
  bool remat(NodeId v) const {
    if (v >= n_orig_) return false;
    return x64::rematerializable(node(v));
  }
  // Puts a value that is in no register into r: from its slot, or anew.
  void reload(NodeId v, Reg r) {
    if (slot_node_[v] != kNone || !remat(v)) {
      put_reg(v, emit_copy(X64Reload, slot_node_[v], x64::place_of(r)), r);
      return;
    }
    Node n = node(v);
    n.loc = loc_;
    put_reg(v, emit(std::move(n), x64::place_of(r)), r);
  }

  void ensure_spilled(NodeId v) {
    if (slot_node_[v] != kNone) return;
    slot_node_[v] = emit_copy(X64Spill, reg_node_[v], home(v));
  }

  // The register class of value v (an input node: x64.h value_classes).
  RegClass cls(NodeId v) const { return v < class_.size() ? class_[v] : RegClass::Gpr; }
  // A free register of class c outside `avoid`, in the class's order; none: nullopt.
  std::optional<Reg> free_reg(RegSet avoid, bool across, RegClass c = RegClass::Gpr) const {
    for (Reg r : class_order(c, across, frame_pointer_))
      if (!(avoid & bit(r)) && owner_[static_cast<unsigned>(r)] == kNone) return r;
    return std::nullopt;
  }
  // The first register of class c (kShortLived for general ones) outside `regs`, whoever holds it.
  std::optional<Reg> free_of(RegSet regs, RegClass c = RegClass::Gpr) const {
    for (Reg r : class_order(c, false, frame_pointer_))
      if (!(regs & bit(r))) return r;
    return std::nullopt;
  }
  // A register for value v (a new one, or one to reload): a free one, else
  // the one whose value is used furthest away (spilled first if it lives
  // on). Only the registers the instruction being placed reads or writes
  // are locked: at most 7 operands and 2 results, so one of the 15 is
  // always left; the check names the instruction if that ever fails.
  Reg pick(RegSet locked, bool across, NodeId v) {
    const RegClass c = cls(v);
    if (std::optional<Reg> r = free_reg(locked, across, c)) return *r;
    Reg best = Reg::Rsp;
    uint32_t far = 0;
    for (Reg r : class_order(c, false, frame_pointer_)) {
      if (locked & bit(r)) continue;
      NodeId w = owner_[static_cast<unsigned>(r)];
      uint32_t d = next(w, pos_);
      if (remat(w) && d != kFar) d = d > kFar / 4 ? kFar - 1 : 4 * d;  // costs one instruction, not two
      if (best == Reg::Rsp || d > far) {
        best = r;
        far = d;
      }
    }
    if (best == Reg::Rsp)
      fail("no register for " + value_name(v) + ": every register is locked by this instruction (" +
           describe_regs(locked) + ")");
    evict(best);
    return best;
  }
  void evict(Reg r) {
    NodeId v = owner_[static_cast<unsigned>(r)];
    if (v == kNone) return;
    if (next(v, pos_) != kFar && !remat(v)) ensure_spilled(v);
    drop_reg(v);
  }

  // ---- step 1: inputs ----
  // Puts v in fixed register r; returns the node the instruction reads
  // there. `keep`: the instruction destroys r and v lives on after it, so a
  // copy in r serves the instruction and v stays in its own register.
  // `kill`: the registers the instruction destroys; a value r held that
  // lives on does not move into one of them (at a call it would only be
  // moved or spilled again by step 3, and a constant made anew after it);
  // every register at a cold call, where it goes to its slot.
  NodeId ensure_in(NodeId v, Reg r, RegSet& locked, bool keep, RegSet kill) {
    if (in_reg(v) && reg_of(v) == r) {
      locked |= bit(r);
      return reg_node_[v];
    }
    NodeId w = owner_[static_cast<unsigned>(r)];
    if (w != kNone) {
      if (locked & bit(r))
        fail(value_name(v) + " must be in " + std::string(x64::reg_name(r)) + ", which holds " + value_name(w) +
             ", another operand of this instruction");
      bool needed = next(w, pos_) != kFar;
      if (needed && in_reg(v) && !(locked & bit(reg_of(v))) && cls(w) == RegClass::Gpr &&
          !free_reg(locked | bit(r), false)) {
        exchange(v, w);
        locked |= bit(r);
        return reg_node_[v];
      }
      if (needed) {
        if (std::optional<Reg> to = free_reg(locked | bit(r) | kill, across_[w], cls(w)))
          put_reg(w, emit_copy(X64Mov, reg_node_[w], x64::place_of(*to)), *to);
        else
          evict(r);
      }
      if (owner_[static_cast<unsigned>(r)] != kNone) drop_reg(owner_[static_cast<unsigned>(r)]);
    }
    locked |= bit(r);
    if (in_reg(v) && keep) return emit_copy(X64Mov, reg_node_[v], x64::place_of(r));
    if (in_reg(v))
      put_reg(v, emit_copy(X64Mov, reg_node_[v], x64::place_of(r)), r);
    else
      reload(v, r);
    return reg_node_[v];
  }

  // Swaps the registers of v and w (both held); each gets its proj.
  void exchange(NodeId v, NodeId w) {
    Reg rv = reg_of(v), rw = reg_of(w);
    NodeId x = emit_xchg(reg_node_[v], reg_node_[w]);
    NodeId pv = emit_proj(x, 0, x64::place_of(rw));
    NodeId pw = emit_proj(x, 1, x64::place_of(rv));
    drop_reg(v);
    drop_reg(w);
    put_reg(v, pv, rw);
    put_reg(w, pw, rv);
  }
  NodeId emit_xchg(NodeId a, NodeId b) {
    Node n;
    n.op = X64Xchg;
    n.inputs = {a, b};
    n.loc = loc_;
    ++stats_.exchanges;
    return emit(std::move(n), Place());
  }
  NodeId emit_proj(NodeId tuple, int64_t e, Place p) {
    Node n;
    n.op = Proj;
    n.literals = {Literal::integer(e)};
    n.inputs = {tuple};
    n.loc = loc_;
    return emit(std::move(n), p);
  }

  // Puts v in a register outside `forbidden` (forbidden_input_regs: the
  // callee of a variadic indirect call is not in rax): where it is, else
  // moved out of a forbidden register, else reloaded or made anew.
  void ensure_any(NodeId v, RegSet& locked, RegSet forbidden = 0) {
    if (in_reg(v) && !(forbidden & bit(reg_of(v)))) {
      locked |= bit(reg_of(v));
      return;
    }
    Reg r = pick(locked | forbidden, across_[v], v);
    if (in_reg(v))
      put_reg(v, emit_copy(X64Mov, reg_node_[v], x64::place_of(r)), r);
    else
      reload(v, r);
    locked |= bit(r);
  }

  struct Operand {
    NodeId user;
    size_t index;
    NodeId value;
    x64::OperandConstraint want;
    RegSet forbidden;  // registers the node's literals rule out (x64::forbidden_input_regs)
  };

  // The value inputs of `id` that need a register (address bases excluded).
  void collect_operands(NodeId id, std::vector<Operand>& ops) const {
    const Node& nd = node(id);
    const OpInfo& info = op_info(nd.op);
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      NodeId in = nd.inputs[i];
      if (shape_letter(info.inputs, i) != 'v' || is_address_node(node(in).op)) continue;
      x64::OperandConstraint want = x64::input_constraint(nd, i);
      if (want.kind == x64::Fixed::None) continue;  // not read (x64:flagsof names its input's flags)
      ops.push_back({id, i, in, want, x64::forbidden_input_regs(nd, i).regs & 0xFFFFu});
    }
  }

  // ---- one instruction (with its flags producer, if deferred) ----
  // `producer_pos` is the flags producer's position (when there is one).
  void instruction(NodeId id, NodeId flags_producer, uint32_t producer_pos = 0) {
    at_ = id;
    order_commutative(id);
    to_three_address(id);
    const x64::Constraints c = x64::node_constraints(node(id));  // x64:asm: from its literals
    std::vector<Operand> ops;
    if (flags_producer != kNone) collect_operands(flags_producer, ops);
    collect_operands(id, ops);
    // Each input is read from the node that holds it once it is in place
    // (a value read in two fixed registers is copied, and the state keeps
    // the last copy only; the first stays put in its locked register).
    // While the inputs are placed, next uses count from the producer, so
    // that no input of the pair looks dead to an eviction.
    const uint32_t user_pos = pos_;
    const RegSet kill = c.clobbers | fixed_results(c);  // a call: every caller-saved register, xmm0-15 too
    // At a cold call (cold_call_blocks) the values that live on go to their
    // slots, not to callee-saved registers the prologue would then save and
    // the epilogue restore on every call of the function, rare path or not
    // (here and in step 3).
    const bool call = op_info(node(id).op).has(CALL);
    const bool cold_call = call && cold_callees_.is_cold_call(node(id));
    // Which fixed-register inputs are copied into a register the
    // instruction destroys while their value stays put (it lives on).
    std::vector<uint8_t> keep(ops.size(), 0);
    for (size_t k = 0; k < ops.size(); ++k)
      keep[k] = flags_producer == kNone && ops[k].want.kind == x64::Fixed::Reg && (kill & bit(ops[k].want.reg)) &&
                lives_after(ops[k].value);
    if (flags_producer != kNone) pos_ = producer_pos;
    RegSet locked = 0;
    std::vector<NodeId> read(ops.size(), kNone);
    for (size_t k = 0; k < ops.size(); ++k)
      if (ops[k].want.kind == x64::Fixed::Reg)
        read[k] = ensure_in(ops[k].value, ops[k].want.reg, locked, keep[k], cold_call ? ~RegSet{0} : kill);
    for (size_t k = 0; k < ops.size(); ++k)
      if (ops[k].want.kind != x64::Fixed::Reg) {
        ensure_any(ops[k].value, locked, ops[k].forbidden);
        read[k] = reg_node_[ops[k].value];
      }
    pos_ = user_pos;
    // Step 2: a tied input that lives on stays where it is (a loop-carried
    // value keeps its register); the instruction overwrites a copy of it in
    // the register its result gets.
    std::optional<Reg> tied_reg;
    if (c.tied >= 0) {
      NodeId t = node(id).inputs[static_cast<size_t>(c.tied)];
      tied_reg = reg_of(t);
      if (lives_after(t) && hinted(id) == *tied_reg) {
        // ... unless the result is wanted in t's register: then t moves,
        // into the register it is wanted in itself when that is free (a
        // loop's new value, computed in the register of the phi that the
        // result feeds, moves to its own phi's register: fp_mandel's zr);
        // a value that lives across a call takes pick()'s callee-saved
        // register instead.
        const RegSet avoid = locked | kill | bit(*tied_reg);
        Reg to = across_[t] ? pick(avoid, true, t) : result_pick(t, avoid);
        put_reg(t, emit_copy(X64Mov, reg_node_[t], x64::place_of(to)), to);
      } else if (lives_after(t)) {
        Reg to = result_pick(id, locked | kill | bit(*tied_reg));
        NodeId copy = emit_copy(X64Mov, reg_node_[t], x64::place_of(to));
        for (size_t k = 0; k < ops.size(); ++k)
          if (ops[k].user == id && ops[k].index == static_cast<size_t>(c.tied)) read[k] = copy;
        locked |= bit(to);
        tied_reg = to;
      } else if (Reg h = hinted(id); h != *tied_reg && feeds_edge_phi(id) && free_for(id, h, locked | kill)) {
        // t dies here, but the result is wanted in another register, free
        // now, by the phi it flows into on this block's edge: t moves
        // there first and the instruction overwrites it in place (the
        // move the edge would make, made here, where it frees t's
        // register for a value wanted in it: fp_mandel's zi, computed from
        // zr, leaves zr's register to the new zr).
        NodeId copy = emit_copy(X64Mov, reg_node_[t], x64::place_of(h));
        for (size_t k = 0; k < ops.size(); ++k)
          if (ops[k].user == id && ops[k].index == static_cast<size_t>(c.tied)) read[k] = copy;
        drop_reg(t);
        locked |= bit(h);
        tied_reg = h;
      } else {
        drop_reg(t);
      }
    }
    // Step 3: empty what the instruction destroys.
    for (unsigned r = 0; r < kRegs; ++r) {
      NodeId w = owner_[r];
      if (!(kill & bit(r)) || w == kNone) continue;
      if (lives_after(w)) {
        std::optional<Reg> to;
        if (!cold_call) to = free_reg(kill | locked, call || across_[w], cls(w));
        if (to)
          put_reg(w, emit_copy(X64Mov, reg_node_[w], x64::place_of(*to)), *to);
        else
          evict(static_cast<Reg>(r));
      }
      if (owner_[r] != kNone) drop_reg(owner_[r]);
    }
    // Step 4: releases (of the pair's producer too).
    if (flags_producer != kNone)
      for (NodeId v : releases_[block_][producer_pos]) drop_reg(v);
    for (NodeId v : releases_[block_][pos_]) drop_reg(v);
    // Step 5: the results' registers (the node's, or its projs'), chosen
    // before the instruction is emitted, so that an eviction's spill goes
    // before it.
    std::vector<std::pair<NodeId, Reg>> results;
    RegSet taken = 0;
    auto result_reg = [&](NodeId v, const x64::OperandConstraint& want) {
      Reg r;
      if (tied_reg)
        r = *tied_reg;
      else if (want.kind == x64::Fixed::Reg)
        r = want.reg;
      else if (want.kind == x64::Fixed::LiteralReg)
        r = literal_reg(v);
      else
        r = result_pick(v, taken | fixed_results(c));
      if (owner_[static_cast<unsigned>(r)] != kNone) evict(r);
      taken |= bit(r);
      results.emplace_back(v, r);
    };
    if (is_value_[id]) result_reg(id, c.results[0]);
    for (NodeId p : projs_of(id))
      if (is_value_[p]) {
        size_t e = static_cast<size_t>(node(p).literals[0].as_int());
        if (e >= c.num_results) fail("a proj of a missing result");
        result_reg(p, c.results[e]);
      }
    size_t k = 0;
    if (flags_producer != kNone) k = rewrite_and_place(flags_producer, ops, read, 0);
    rewrite_and_place(id, ops, read, k);
    for (NodeId p : projs_of(id)) {
      out_blocks_[block_].push_back(p);
      done_[p] = 1;
    }
    for (auto [v, r] : results) define(v, r);
  }

  // A commutative two-address instruction overwrites input 0: when input 0
  // lives on and input 1 dies here, the inputs are swapped, so that the
  // dying value is overwritten and no copy is needed; when both die, the
  // one in the register the result is wanted in (its hint) is overwritten.
  void order_commutative(NodeId id) {
    Node& nd = fn_.nodes[id];
    const x64::Constraints& c = x64::constraints(nd.op);
    if (!op_info(nd.op).has(COMMUTATIVE) || c.tied != 0 || nd.inputs.size() != 2) return;
    NodeId a = nd.inputs[0], b = nd.inputs[1];
    if (a == b || !is_value_[a] || !is_value_[b]) return;
    if (lives_after(a) && !lives_after(b)) std::swap(nd.inputs[0], nd.inputs[1]);
    // Both die: the one in the register the result is wanted in is overwritten.
    else if (!lives_after(a) && !lives_after(b) && in_reg(b) && hinted(id) == reg_of(b) &&
             !(in_reg(a) && reg_of(a) == reg_of(b)))
      std::swap(nd.inputs[0], nd.inputs[1]);
  }

  // An add whose input 0 lives on would overwrite a copy of it (step 2),
  // and one whose result is wanted (hinted) in another free register would
  // be copied there later: it becomes a lea, which has three addresses, so
  // the copy goes (LLVM's convertToThreeAddress): x64:addi t k x -> x64:lea
  // t 0 k x, x64:subi t k x -> x64:lea t 0 -k x, x64:add t x y -> x64:lea t
  // 1 0 x y, x64:shli t 1 x -> x64:lea t 1 0 x x. A lea of t i32 computes
  // the same low 32 bits and, like the add, zeroes the upper ones; it leaves
  // the flags alone, so an instruction whose flags an x64:flagsof names
  // stays what it is. Not when the result is wanted in x's own register
  // (then x moves instead, or is overwritten).
  void to_three_address(NodeId id) {
    Node& nd = fn_.nodes[id];
    bool doubling = nd.op == X64ShlI && nd.literals[1].as_int() == 1;
    if (nd.op != X64AddI && nd.op != X64SubI && nd.op != X64Add && !doubling) return;
    if (flags_definer_[id]) return;  // an x64:flagsof reads the flags it sets, which a lea does not
    NodeId x = nd.inputs[0];
    if (!is_value_[x]) return;
    Reg h = hinted(id);
    if (in_reg(x) && h == reg_of(x)) return;
    bool elsewhere = h != Reg::Rsp && owner_[static_cast<unsigned>(h)] == kNone;
    if (!lives_after(x) && !elsewhere) return;
    if (doubling) {
      nd.literals = {nd.literals[0], Literal::integer(1), Literal::integer(0)};
      nd.inputs = {x, x};
    } else if (nd.op == X64Add) {
      if (!is_value_[nd.inputs[1]]) return;
      nd.literals = {nd.literals[0], Literal::integer(1), Literal::integer(0)};
    } else {
      int64_t k = nd.literals[1].as_int();
      if (nd.op == X64SubI) {
        if (k == INT32_MIN) return;
        k = -k;
      }
      nd.literals = {nd.literals[0], Literal::integer(0), Literal::integer(k)};
    }
    nd.op = X64Lea;
  }

  // The register value v is wanted in (hint_), or Rsp for none.
  // A phi's register comes first: a loop's back edge runs more often than
  // the call or division outside the loop that may also read the value.
  Reg hinted(NodeId v) const {
    if (v >= n_orig_) return Reg::Rsp;
    uint32_t h = phi_hint_[v] != kNone ? phi_hint_[v] : fixed_hint_[v];
    return h != kNone ? static_cast<Reg>(h) : Reg::Rsp;
  }

  // Phi coalescing through two-address instructions: v, an input of a phi
  // placed in r, prefers r, and so does the input v's instruction
  // overwrites (its tied input) when v's instruction is that input's only
  // reader: the value is made in that register from the start and the
  // chain that computes the phi's next value stays in it (fp_mandel's
  // zi = 2*zr*zi + ci: the sum overwrites the product, which overwrites
  // 2*zr). Not through a phi (its place is decided at its merge), nor into
  // a value with a hint already, nor into the other input of a commutative
  // instruction (order_commutative may tie it): that one is often defined
  // while the phi still holds r (bits' popcount, x & (x - 1): x - 1 would
  // want x's register while x lives on, and x would move out of it).
  void hint_phi_input(NodeId v, Reg r) {
    std::vector<NodeId> work{v};
    while (!work.empty()) {
      NodeId w = work.back();
      work.pop_back();
      if (w >= n_orig_ || !is_value_[w] || phi_hint_[w] != kNone) continue;
      phi_hint_[w] = static_cast<unsigned>(r);
      const Node& nd = node(w);
      if (nd.op == Phi || !x64::is_x64(nd.op)) continue;
      const int tied = x64::node_constraints(nd).tied;
      if (tied < 0) continue;
      NodeId in = nd.inputs[static_cast<size_t>(tied)];
      if (in < n_orig_ && readers_[in] == 1 && cls(in) == cls(w)) work.push_back(in);
    }
  }

  // Whether v is an input of a phi of this block's successor on this
  // block's edge (the block ends with the jump to that merge).
  bool feeds_edge_phi(NodeId v) const {
    if (graph_.succs[block_].size() != 1) return false;
    const uint32_t s = graph_.succs[block_][0];
    const std::vector<uint32_t>& preds = graph_.preds[s];
    for (size_t k = 0; k < preds.size(); ++k) {
      if (preds[k] != block_) continue;
      for (NodeId id : orig_[s].nodes) {
        if (node(id).op != Phi) break;
        if (node(id).inputs.size() > k && node(id).inputs[k] == v) return true;
      }
    }
    return false;
  }
  // Whether register r may take v's value now: of v's class, free, and
  // neither locked nor destroyed by the instruction being placed.
  bool free_for(NodeId v, Reg r, RegSet avoid) const {
    return r != Reg::Rsp && x64::reg_class(r) == cls(v) && !(avoid & bit(r)) &&
           owner_[static_cast<unsigned>(r)] == kNone;
  }

  // A register for the new value v: its hint when that is free and
  // allowed, else pick()'s choice.
  Reg result_pick(NodeId v, RegSet avoid) {
    Reg h = hinted(v);
    if (h != Reg::Rsp && x64::reg_class(h) == cls(v) && !(avoid & bit(h)) && owner_[static_cast<unsigned>(h)] == kNone)
      return h;
    return pick(avoid, across_[v], v);
  }

  // Hints for values read in a fixed register (a call argument, a return
  // value, a dividend, a shift count): the first such use in block order.
  void hint_fixed_uses() {
    for (const Block& b : orig_)
      for (NodeId id : b.nodes) {
        const Node& nd = node(id);
        if (!x64::is_x64(nd.op)) continue;
        for (size_t i = 0; i < nd.inputs.size(); ++i) {
          x64::OperandConstraint want = x64::input_constraint(nd, i);
          NodeId in = nd.inputs[i];
          if (want.kind == x64::Fixed::Reg && in < n_orig_ && is_value_[in] && fixed_hint_[in] == kNone)
            fixed_hint_[in] = static_cast<unsigned>(want.reg);
          // The callee of a variadic indirect call may not be in rax, the
          // first register a new value would take: r11, which no argument
          // uses, saves a move out of rax before the call.
          if (x64::forbidden_input_regs(nd, i).regs && in < n_orig_ && is_value_[in] && fixed_hint_[in] == kNone)
            fixed_hint_[in] = static_cast<unsigned>(Reg::R11);
        }
      }
    // A phi's hint passes to its inputs: a value returned through a merge
    // prefers rax on every edge into it.
    std::vector<NodeId> work;
    for (const Block& b : orig_)
      for (NodeId id : b.nodes)
        if (node(id).op == Phi && fixed_hint_[id] != kNone) work.push_back(id);
    while (!work.empty()) {
      NodeId phi = work.back();
      work.pop_back();
      for (NodeId in : node(phi).inputs)
        if (in < n_orig_ && is_value_[in] && fixed_hint_[in] == kNone) {
          fixed_hint_[in] = fixed_hint_[phi];
          if (node(in).op == Phi) work.push_back(in);
        }
    }
  }

  static RegSet fixed_results(const x64::Constraints& c) {
    RegSet s = 0;
    for (size_t e = 0; e < c.num_results; ++e)
      if (c.results[e].kind == x64::Fixed::Reg) s |= bit(c.results[e].reg);
    return s;
  }
  Reg literal_reg(NodeId v) const {
    std::optional<Reg> r = x64::parse_reg(node(v).literals[1].as_string());
    if (!r) fail("a register literal names no register");
    return *r;
  }
  const std::vector<NodeId>& projs_of(NodeId id) const {
    static const std::vector<NodeId> none;
    auto it = projs_.find(id);
    return it == projs_.end() ? none : it->second;
  }

  // Points the operands of `id` at the nodes read; appends it to the block.
  size_t rewrite_and_place(NodeId id, const std::vector<Operand>& ops, const std::vector<NodeId>& read, size_t k) {
    for (; k < ops.size() && ops[k].user == id; ++k) fn_.nodes[id].inputs[ops[k].index] = read[k];
    out_blocks_[block_].push_back(id);
    done_[id] = 1;
    return k;
  }

  void define(NodeId id, Reg r) {
    fn_.nodes[id].place = x64::place_of(r);
    put_reg(id, id, r);
    if (!lives_after(id)) drop_reg(id);
  }

  // ---- blocks ----
  void assign_block(uint32_t b) {
    block_ = b;
    at_ = kNone;
    for (NodeId v : touched_) {
      reg_node_[v] = kNone;
      slot_node_[v] = kNone;
    }
    touched_.clear();
    owner_.fill(kNone);
    enter(b);
    const std::vector<NodeId>& list = orig_[b].nodes;
    std::vector<NodeId> order;  // argregs first in the entry block
    if (b == 0)
      for (NodeId id : list)
        if (node(id).op == X64ArgReg) order.push_back(id);
    if (b == 0) argregs(order);
    NodeId deferred = kNone;
    uint32_t deferred_pos = 0;
    for (uint32_t i = 0; i < list.size(); ++i) {
      NodeId id = list[i];
      const Node& nd = node(id);
      if (done_[id] || nd.op == Phi) continue;
      pos_ = i;
      loc_ = nd.loc;
      at_ = id;
      if (nd.op == X64ArgReg && b == 0) continue;  // placed by argregs()
      if (deferred != kNone && !reads_flags(id, deferred)) {
        std::swap(pos_, deferred_pos);
        instruction(deferred, kNone);
        std::swap(pos_, deferred_pos);
        deferred = kNone;
      }
      if (op_info(nd.op).results == "f") {
        deferred = id;
        deferred_pos = i;
        continue;
      }
      if (nd.op == Jump) {
        leave_by_jump(b);
        out_blocks_[b].push_back(id);
        done_[id] = 1;
      } else if (nd.op == Undef) {
        if (is_value_[id]) {
          Reg r = pick(0, across_[id], id);
          out_blocks_[b].push_back(id);
          done_[id] = 1;
          define(id, r);
        } else {
          out_blocks_[b].push_back(id);
          done_[id] = 1;
        }
      } else if (!x64::is_x64(nd.op)) {
        out_blocks_[b].push_back(id);  // entrymem, a memory proj
        done_[id] = 1;
      } else {
        instruction(id, deferred, deferred_pos);
        deferred = kNone;
      }
    }
    if (deferred != kNone) {  // a flags value nothing in the block reads
      pos_ = deferred_pos;
      instruction(deferred, kNone);
    }
    snapshot(b);
  }

  bool reads_flags(NodeId user, NodeId flags) const {
    for (NodeId in : node(user).inputs)
      if (in == flags) return true;
    return false;
  }

  // The entry block takes its argument registers before anything else.
  void argregs(const std::vector<NodeId>& order) {
    if (argregs_done_) return;
    argregs_done_ = true;
    for (NodeId id : order) {
      out_blocks_[0].push_back(id);
      done_[id] = 1;
      std::optional<Reg> r = x64::parse_reg(node(id).literals[1].as_string());
      if (!r) fail("x64:argreg names no register");
      fn_.nodes[id].place = x64::place_of(*r);
      put_reg(id, id, *r);
      if (next(id, 0) == kFar) drop_reg(id);
    }
  }

  void snapshot(uint32_t b) {
    Snapshot& s = exit_[b];
    s.values.clear();
    std::vector<NodeId> live;
    for (const auto& [v, d] : live_.live_out[b]) live.push_back(v);
    std::sort(live.begin(), live.end());
    for (NodeId v : live) s.values.push_back({v, reg_node_[v], slot_node_[v]});
  }

  // The state at the top of block b.
  void enter(uint32_t b) {
    if (b == 0) return;
    const std::vector<uint32_t>& preds = graph_.preds[b];
    if (preds.size() == 1) {  // (single-input phis were folded away)
      for (const Held& h : exit_[preds[0]].values) {
        if (!live_.live_in[b].count(h.value)) continue;
        if (h.reg_node != kNone) put_reg(h.value, h.reg_node, reg_of_node(h.reg_node));
        slot_node_[h.value] = h.slot_node;
        touched_.push_back(h.value);
      }
      return;
    }
    const Entry& e = entry_[b];
    if (!e.set) fail("a merge is entered before its predecessors");
    for (size_t k = 0; k < e.live.size(); ++k) hold(e.live[k].first, e.live_phis[k], e.live[k].second);
    for (const auto& [phi, p] : e.phis) {
      fn_.nodes[phi].place = p;
      hold(phi, phi, p);
    }
    for (NodeId phi : e.live_phis) out_blocks_[b].push_back(phi);
  }
  void hold(NodeId v, NodeId holder, Place p) {
    if (p.is_reg())
      put_reg(v, holder, x64::reg_of(p));
    else
      slot_node_[v] = holder;
    touched_.push_back(v);
  }

  // ---- leaving a block for a merge: the parallel move ----
  void leave_by_jump(uint32_t b) {
    uint32_t s = graph_.succs[b][0];
    if (graph_.preds[s].size() < 2) return;
    size_t k = 0;
    while (graph_.preds[s][k] != b) ++k;
    Entry& e = entry_[s];
    if (!e.set) decide_entry(s, k);
    std::vector<NodeId> sources, phis;  // source value, phi whose input k it fills
    std::vector<Place> places;
    for (size_t j = 0; j < e.live.size(); ++j) {
      sources.push_back(e.live[j].first);
      places.push_back(e.live[j].second);
      phis.push_back(e.live_phis[j]);
    }
    for (const auto& [phi, p] : e.phis) {
      sources.push_back(node(phi).inputs[k]);
      places.push_back(p);
      phis.push_back(phi);
    }
    // A constant the merge wants that is in no register here is made anew
    // after the parallel move: right in its register (no move writes
    // there), or, when its place is a slot (a phi past the 14 entry
    // registers), in a register no move writes and stored from there. Not
    // before the move: there every register may hold a source of the move
    // (15 constants the merge also wants: issue 22), and a store into the
    // slot could overwrite a source the move still reads.
    std::vector<uint8_t> anew(sources.size(), 0);
    RegSet written = 0;  // the registers the move writes
    for (size_t j = 0; j < sources.size(); ++j) {
      if (places[j].is_reg()) written |= bit(x64::reg_of(places[j]));
      NodeId v = sources[j];
      if (remat(v) && !in_reg(v) && slot_node_[v] == kNone) anew[j] = 1;
    }
    std::vector<NodeId> holders;
    std::vector<Place> to;
    std::vector<RegClass> classes;
    for (size_t j = 0; j < sources.size(); ++j)
      if (!anew[j]) {
        holders.push_back(holder(sources[j], places[j]));
        to.push_back(places[j]);
        classes.push_back(cls(sources[j]));
      }
    Sink sink(*this);
    std::vector<NodeId> moved = edge_moves(fn_, holders, to, classes, sink, frame_pointer_);
    std::vector<NodeId> result;
    for (size_t j = 0, m = 0; j < sources.size(); ++j) {
      if (!anew[j]) {
        result.push_back(moved[m++]);
        continue;
      }
      Node n = node(sources[j]);
      n.loc = loc_;
      if (places[j].is_reg()) {
        result.push_back(emit(std::move(n), places[j]));
        continue;
      }
      std::optional<Reg> scratch = free_of(written, cls(sources[j]));
      if (!scratch)
        fail("no register to make " + value_name(sources[j]) + " anew for the merge's slot: the edge move writes " +
             describe_regs(written));
      result.push_back(emit_copy(X64Spill, emit(std::move(n), x64::place_of(*scratch)), places[j]));
    }
    for (size_t j = 0; j < sources.size(); ++j) fn_.nodes[phis[j]].inputs[k] = result[j];
  }

  // The blocks of the loops block s heads: those that reach a back edge
  // into s (a predecessor at or after s in reverse postorder, the order
  // blocks are assigned in) without passing through s. Empty: s heads none.
  std::vector<uint32_t> loop_blocks(uint32_t s) const {
    std::vector<uint32_t> body, stack;
    std::vector<uint8_t> seen(graph_.preds.size(), 0);
    seen[s] = 1;
    for (uint32_t p : graph_.preds[s])
      if (rpo_index_[p] != DomTree::kNone && rpo_index_[p] >= rpo_index_[s] && !seen[p]) {
        seen[p] = 1;
        stack.push_back(p);
      }
    if (stack.empty()) return body;
    body.push_back(s);
    while (!stack.empty()) {
      uint32_t b = stack.back();
      stack.pop_back();
      body.push_back(b);
      for (uint32_t p : graph_.preds[b])
        if (!seen[p] && rpo_index_[p] != DomTree::kNone) {
          seen[p] = 1;
          stack.push_back(p);
        }
    }
    return body;
  }
  // Whether an instruction of one of `blocks` reads v (phis read at edges:
  // a phi of these blocks with v as an input counts too).
  // The values live through the loop of header s (live in, not used in
  // it) that wait in their slots while it runs: when the loop's peak
  // register demand in a class (max_pressure, with the constants of that
  // class it does not use already dropped) exceeds kMaxEntryRegs, enough
  // of that class's through values, furthest next use first, so that the
  // loop's own values keep registers and the through values are stored
  // once on entry instead of being spilled and reloaded around its peaks
  // on every trip (matmul's outer loop values around the unrolled inner
  // loop). The classes are counted apart: general values do not take xmm
  // registers from float ones (fp_mandel's integer counters and its
  // float values) nor the reverse.
  // Also when the loop calls and more general values live across one of
  // its calls than there are callee-saved registers: the values the loop
  // does not use then wait in their slots (furthest next use first, as
  // many as the excess), so that the callee-saved registers hold what the
  // loop reads around its calls instead of being spilled and reloaded
  // there on every trip (a value parked at the loop's entry costs one
  // store there and one reload after the loop). Sorted.
  std::vector<NodeId> values_to_park(uint32_t s, const std::vector<uint32_t>& loop) {
    std::array<size_t, 2> need = max_pressure(loop);
    std::array<std::vector<std::pair<uint32_t, NodeId>>, 2> through;  // per class: (distance, value)
    for (const auto& [v, d] : live_.live_in[s]) {
      if (used_in(v, loop)) continue;
      size_t c = class_index(v);
      if (remat(v)) {
        need[c] -= need[c] > 0;
        continue;
      }
      through[c].emplace_back(d, v);
    }
    for (auto& t : through) std::sort(t.begin(), t.end(), std::greater<>());
    // General values first for the calls, then any of each class for its register count.
    const size_t callee_saved_regs = callee_saved_count();
    const size_t across = across_call_pressure(loop);
    const size_t excess_calls = across > callee_saved_regs ? across - callee_saved_regs : 0;
    std::vector<NodeId> out;
    for (size_t c = 0; c < 2; ++c) {
      const size_t excess_regs = need[c] > kMaxEntryRegs ? need[c] - kMaxEntryRegs : 0;
      const size_t count = std::min(through[c].size(), std::max(excess_regs, c == 0 ? excess_calls : 0));
      for (size_t k = 0; k < count; ++k) out.push_back(through[c][k].second);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // 0 for the general class, 1 for xmm (per-class counts).
  size_t class_index(NodeId v) const { return cls(v) == RegClass::Xmm ? 1 : 0; }

  // The callee-saved general registers values may take (rbp is the frame
  // pointer in a function that keeps one).
  size_t callee_saved_count() const { return frame_pointer_ ? 5 : 6; }

  // The most general-register values live across any call of the blocks
  // (the call's own results not counted): what the callee-saved registers
  // would have to hold there.
  size_t across_call_pressure(const std::vector<uint32_t>& blocks) {
    size_t peak = 0;
    scratch_live_.resize(n_orig_, 0);
    std::vector<NodeId> marked;
    for (uint32_t b : blocks) {
      if (cold_[b]) continue;  // saved around on that rare path
      size_t count = 0;  // general values live after the current node
      auto mark = [&](NodeId v) {
        if (scratch_live_[v]) return;
        scratch_live_[v] = 1;
        marked.push_back(v);
        count += cls(v) == RegClass::Gpr;
      };
      for (const auto& [v, d] : live_.live_out[b]) mark(v);
      for (size_t i = orig_[b].nodes.size(); i-- > 0;) {
        NodeId id = orig_[b].nodes[i];
        if (node(id).op == Phi) break;
        if (is_value_[id] && scratch_live_[id]) {
          scratch_live_[id] = 0;
          count -= cls(id) == RegClass::Gpr;
        }
        if (op_info(node(id).op).has(CALL)) peak = std::max(peak, count);
        for (NodeId in : node(id).inputs)
          if (in < n_orig_ && is_value_[in]) mark(in);
      }
      for (NodeId v : marked) scratch_live_[v] = 0;
      marked.clear();
    }
    return peak;
  }

  // The most values of each class (general, xmm) live at once at any
  // instruction of the blocks (a walk back from each block's live-out set).
  std::array<size_t, 2> max_pressure(const std::vector<uint32_t>& blocks) {
    std::array<size_t, 2> peak{0, 0};
    scratch_live_.resize(n_orig_, 0);
    std::vector<NodeId> marked;
    for (uint32_t b : blocks) {
      std::array<size_t, 2> count{0, 0};
      auto mark = [&](NodeId v) {
        if (scratch_live_[v]) return;
        scratch_live_[v] = 1;
        marked.push_back(v);
        ++count[class_index(v)];
      };
      for (const auto& [v, d] : live_.live_out[b]) mark(v);
      for (size_t c = 0; c < 2; ++c) peak[c] = std::max(peak[c], count[c]);
      for (size_t i = orig_[b].nodes.size(); i-- > 0;) {
        NodeId id = orig_[b].nodes[i];
        if (node(id).op == Phi) break;
        const bool defines = is_value_[id];
        if (defines && scratch_live_[id]) {
          scratch_live_[id] = 0;
          --count[class_index(id)];
        }
        for (NodeId in : node(id).inputs)
          if (in < n_orig_ && is_value_[in]) mark(in);
        for (size_t c = 0; c < 2; ++c)
          peak[c] = std::max(peak[c], count[c] + (defines && class_index(id) == c));
      }
      for (NodeId v : marked) scratch_live_[v] = 0;
      marked.clear();
    }
    return peak;
  }

  // (A phi's input counts on the edges from the blocks themselves: a loop
  // header's phi reads its entry input at the end of the block before the
  // loop, outside it.)
  bool used_in(NodeId v, const std::vector<uint32_t>& blocks) const {
    for (uint32_t b : blocks) {
      if (usage_.uses[b].count(v)) return true;
      for (NodeId id : orig_[b].nodes) {
        if (node(id).op != Phi) break;
        const InputList& in = node(id).inputs;
        for (size_t k = 0; k < in.size(); ++k)
          if (in[k] == v && (k >= graph_.preds[b].size() ||
                             std::find(blocks.begin(), blocks.end(), graph_.preds[b][k]) != blocks.end()))
            return true;
      }
    }
    return false;
  }

  // The first predecessor done decides the merge's entry locations.
  // At a loop header under register pressure (more values of one class
  // live in than kLoopRematLimit), a rematerializable constant of that
  // class the loop does not use
  // gets no entry register: held through the loop it would take a register
  // the loop's own values need (a spill in every iteration), or be evicted
  // inside and made again at the end of every iteration to match the entry;
  // instead it is made anew where it is used, after the loop.
  void decide_entry(uint32_t s, size_t k) {
    Entry& e = entry_[s];
    e.set = true;
    RegSet claimed = 0;
    std::array<unsigned, 2> regs_of{0, 0};  // entry registers taken, per class
    auto regs = [&](NodeId v) -> unsigned& { return regs_of[cls(v) == RegClass::Xmm]; };
    std::vector<NodeId> live;
    for (const auto& [v, d] : live_.live_in[s]) live.push_back(v);
    std::sort(live.begin(), live.end());
    std::array<size_t, 2> pressure{0, 0};  // values live in and phis, per class
    for (NodeId v : live) ++pressure[class_index(v)];
    for (NodeId id : orig_[s].nodes) {
      if (node(id).op != Phi) break;
      if (is_value_[id]) ++pressure[class_index(id)];
    }
    // Loops are looked at under register pressure (in either class: each
    // has its own registers), and where more general values live in than
    // there are callee-saved registers (the loop may call: values_to_park).
    const std::array<bool, 2> pressured_class{pressure[0] > kLoopRematLimit, pressure[1] > kLoopRematLimit};
    const bool pressured = pressured_class[0] || pressured_class[1];
    size_t general_live = 0;
    for (NodeId v : live) general_live += cls(v) == RegClass::Gpr && !remat(v);
    for (NodeId id : orig_[s].nodes) {
      if (node(id).op != Phi) break;
      general_live += is_value_[id] && cls(id) == RegClass::Gpr;
    }
    std::vector<uint32_t> loop =
        pressured || general_live > callee_saved_count() ? loop_blocks(s) : std::vector<uint32_t>{};
    std::vector<NodeId> parked = loop.empty() ? std::vector<NodeId>{} : values_to_park(s, loop);
    // A value that lives across a call but sits in a caller-saved register
    // moves into a free callee-saved one here (after the others have kept
    // theirs), so that the calls after the merge need not move it (a loop
    // around a call moves it once, on entry, instead of on every trip). Not
    // for a value whose calls are all cold (across_ leaves it out): it is
    // saved around them, and the move would be made on every entry to the
    // merge (fp_nbody's i + 1, moved into rbp at the inner loop's entry on
    // every outer trip for sqrt's errno call, and back to its phi after).
    std::vector<NodeId> to_callee_saved;
    for (NodeId v : live) {
      Place p;
      if (!loop.empty() && !used_in(v, loop)) {
        if (pressured_class[class_index(v)] && remat(v)) continue;  // made anew where it is used after the loop
        if (std::binary_search(parked.begin(), parked.end(), v)) {
          e.live.emplace_back(v, home(v));  // stored once on entry, not around the loop's peaks
          continue;
        }
      }
      if (in_reg(v) && regs(v) < kMaxEntryRegs) {
        if (across_[v] && cls(v) == RegClass::Gpr && !callee_saved(reg_of(v))) {
          to_callee_saved.push_back(v);
          ++regs(v);
          continue;
        }
        p = x64::place_of(reg_of(v));
        claimed |= bit(reg_of(v));
        ++regs(v);
      } else if (remat(v)) {
        continue;  // made anew where it is used after the merge
      } else {
        p = home(v);
      }
      e.live.emplace_back(v, p);
    }
    RegSet hinted_regs = 0;  // kept for the block's phis
    for (NodeId id : orig_[s].nodes) {
      if (node(id).op != Phi) break;
      if (Reg h = hinted(id); is_value_[id] && h != Reg::Rsp) hinted_regs |= bit(h);
    }
    for (NodeId v : to_callee_saved) {
      Reg r = reg_of(v);
      for (Reg c : class_order(RegClass::Gpr, true, frame_pointer_))
        if (callee_saved(c) && !(claimed & bit(c)) && !(hinted_regs & bit(c))) {
          r = c;
          break;
        }
      claimed |= bit(r);
      e.live.emplace_back(v, x64::place_of(r));
    }
    std::sort(e.live.begin(), e.live.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (NodeId id : orig_[s].nodes) {
      if (node(id).op != Phi) break;
      if (!is_value_[id]) continue;
      NodeId u = node(id).inputs[k];
      Place p;
      std::optional<Reg> r;
      // The register the phi is wanted in (it feeds a later phi, or a fixed
      // register), else its input's register on this edge.
      if (Reg h = hinted(id); h != Reg::Rsp && !(claimed & bit(h))) r = h;
      if (r && x64::reg_class(*r) != cls(id)) r.reset();
      if (!r && in_reg(u) && !(claimed & bit(reg_of(u))) &&
          (!across_[id] || callee_saved(reg_of(u)) || cls(id) == RegClass::Xmm))
        r = reg_of(u);
      if (!r) {
        for (Reg c : class_order(cls(id), across_[id], frame_pointer_))
          if (!(claimed & bit(c))) {
            r = c;
            break;
          }
      }
      if (r && regs(id) < kMaxEntryRegs) {
        p = x64::place_of(*r);
        claimed |= bit(*r);
        ++regs(id);
        // Phi coalescing: the inputs on the other edges, when defined later,
        // prefer this register, so that their edge moves vanish.
        for (NodeId in : node(id).inputs) hint_phi_input(in, *r);
      } else {
        p = home(id);
      }
      e.phis.emplace_back(id, p);
    }
    // One phi per live-in value, filled edge by edge.
    for (const auto& [v, p] : e.live) {
      Node phi;
      phi.op = Phi;
      phi.control = {orig_[s].node};
      phi.inputs.assign(graph_.preds[s].size(), v);
      phi.place = p;
      phi.loc = node(v).loc;
      fn_.nodes.push_back(std::move(phi));
      e.live_phis.push_back(static_cast<NodeId>(fn_.nodes.size() - 1));
    }
  }

  // The node to move `v` from into `target`: its copy already there, else
  // its register, else its slot.
  NodeId holder(NodeId v, Place target) const {
    if (slot_node_[v] != kNone && place_of_node(slot_node_[v]) == target) return slot_node_[v];
    if (in_reg(v)) return reg_node_[v];
    if (slot_node_[v] == kNone) fail(value_name(v) + ", live into a merge, is in no register and no slot");
    return slot_node_[v];
  }

  class Sink : public MoveSink {
   public:
    explicit Sink(Assigner& a) : a_(a) {}
    NodeId copy(Op op, NodeId from, Place to) override { return a_.emit_copy(op, from, to); }
    std::pair<NodeId, NodeId> xchg(NodeId x, NodeId y) override {
      NodeId n = a_.emit_xchg(x, y);
      NodeId p0 = a_.emit_proj(n, 0, a_.place_of_node(y));
      NodeId p1 = a_.emit_proj(n, 1, a_.place_of_node(x));
      return {p0, p1};
    }
    Place fresh_slot() override {  // wide enough for a 16-byte vector where the function has one
      Place p = Place::slot(a_.next_slot_);
      a_.next_slot_ += a_.has_vec_ ? 2 : 1;
      return p;
    }

   private:
    Assigner& a_;
  };

  Function& fn_;
  Stats& stats_;
  bool frame_pointer_ = false;  // rbp is the frame pointer: no value takes it
  const std::vector<Block> orig_;
  const NodeId n_orig_;
  BlockGraph graph_;
  std::vector<uint8_t> is_value_;
  std::vector<uint8_t> vec_;  // 16-byte vector values (x64.h v128_values): two slots each
  bool has_vec_ = false;
  std::vector<uint8_t> flags_definer_;  // the inputs of x64:flagsof nodes (never made a lea)
  Usage usage_;
  Liveness live_;
  Releases releases_;
  std::vector<uint8_t> across_;
  const x64::ColdCallees& cold_callees_;
  std::vector<uint8_t> cold_;  // per block: it makes a cold call (cold_call_blocks)
  std::vector<uint8_t> scratch_live_;  // max_pressure's live set, all 0 between calls
  std::vector<NodeId> reg_node_, slot_node_;
  std::vector<uint32_t> home_;
  // Register hints (kNone: none): of a phi the value flows into, of a fixed
  // register that reads it.
  std::vector<uint32_t> phi_hint_, fixed_hint_;
  std::vector<uint8_t> readers_;  // per input node: how many inputs read it (0, 1, or 2 for more)
  std::array<NodeId, kRegs> owner_{};
  std::vector<RegClass> class_;  // per input node: its register class
  std::vector<NodeId> touched_;
  std::vector<uint8_t> done_;
  std::vector<Snapshot> exit_;
  std::vector<Entry> entry_;
  std::vector<std::vector<NodeId>> out_blocks_;
  std::vector<uint32_t> rpo_index_;  // block -> position in reverse postorder
  std::unordered_map<NodeId, std::vector<NodeId>> projs_;
  uint32_t block_ = 0, pos_ = 0, next_slot_ = 0;
  NodeId at_ = kNone;  // the instruction being placed (for fail())
  Loc loc_;
  bool argregs_done_ = false;

 public:
  // Projs of each tuple, by index (filled before run()).
  void index_projs() {
    for (NodeId id = 0; id < n_orig_; ++id)
      if (node(id).op == Proj && node(node(id).inputs[0]).op != Phi) projs_[node(id).inputs[0]].push_back(id);
    for (auto& [t, list] : projs_)
      std::sort(list.begin(), list.end(), [&](NodeId a, NodeId b) {
        return node(a).literals[0].as_int() < node(b).literals[0].as_int();
      });
  }
};

}  // namespace

uint32_t assign_registers(Function& fn, Stats& stats, bool frame_pointer, const x64::ColdCallees& cold) {
  Assigner a(fn, stats, frame_pointer, cold);
  a.index_projs();
  return a.run();
}

}  // namespace pl::ra
