// emit_function.cpp - one ra-x64 function as machine instructions; see
// emit_function.h.
#include "emit_function.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/asm.h"
#include "ir/error.h"
#include "ir/eval.h"
#include "ir/eval_float.h"
#include "ir/eval_v128.h"
#include "frame.h"
#include "parallel_move.h"
#include "sibling_calls.h"
#include "value_places.h"

namespace pl::x64 {

namespace {

constexpr NodeId kNoNode = ~NodeId{0};

class FunctionEmitter {
 public:
  FunctionEmitter(McEmitter& out, const Function& fn, DwarfWriter* dwarf) : out_(out), fn_(fn), dwarf_(dwarf) {}
  void run();

 private:
  McEmitter& out_;
  const Function& fn_;
  DwarfWriter* dwarf_;                                // -g with the module's debug section
  FunctionDebugFacts facts_;                          // what dwarf_ needs of this function
  std::vector<Loc> prologue_locs_;                    // the start's and the parameters' locations
  bool before_body_ = true;                           // prologue_end not yet placed
  Loc scope_loc_;                                     // the location scope_ was computed for
  int32_t scope_ = -1;                                // innermost lexical block of the code now
  std::unordered_map<NodeId, uint32_t> block_index_;  // block node -> index in cfg.blocks
  std::vector<std::array<NodeId, 5>> projs_;          // tuple node -> proj node per result
  std::unordered_map<NodeId, uint32_t> stack_slot_;   // x64:stackslot node -> FrameRequest slot
  std::vector<Label> labels_;
  std::vector<uint8_t> pushed_slots_;                 // per spill slot: a save done by a push
  std::vector<uint32_t> forward_;                     // block -> the block a jump to it goes to
  Frame frame_;
  uint32_t outgoing_bytes_ = 0;                       // the outgoing stack-argument area, rounded to 16
  // --sibling-calls (sibling_calls.h): x64:ret or jump -> the x64:call it
  // jumps to, and those calls, which emit nothing where they are and do not
  // make the function a caller (frame.h: no alignment for them).
  std::unordered_map<NodeId, NodeId> sibling_of_;
  std::unordered_set<NodeId> sibling_calls_;
  // -g on optimized code: where the variables bound to values are, and the
  // location range each has open (per ValuePlaces::bound() entry).
  struct OpenRange {
    std::optional<Place> place;
    llvm::MCSymbol* from = nullptr;
    uint64_t instructions = 0;  // McEmitter's count at `from`
  };
  std::optional<ValuePlaces> values_;
  std::vector<OpenRange> open_;
  // A variable bound in pieces (value_places.h: one entry per piece): its
  // entries by offset, and the composite location (DW_OP_piece per piece,
  // an empty piece where a piece has no place) open since `from`.
  struct Composite {
    size_t var = 0;
    std::vector<size_t> entries;
    std::string expr;  // "": no piece has a place
    llvm::MCSymbol* from = nullptr;
    uint64_t instructions = 0;
  };
  std::vector<Composite> composites_;
  void update_composites();

  const Node& node(NodeId n) const { return fn_.nodes[n]; }
  [[noreturn]] void fail(NodeId n, const std::string& message) const {
    throw FormatError(Where::in(fn_.name, node_name(n)), message);
  }
  // ---- reading the graph ----
  void index_graph();
  void find_forwarding_blocks();
  FrameRequest frame_request() const;
  void find_pushed_saves(FrameRequest& req) const;
  void allocate_probed(Reg size);
  bool is_pushed_save(NodeId spill) const;
  bool only_returns(uint32_t b) const;
  uint32_t outgoing_bytes() const;
  NodeId through_copies(NodeId n) const;
  std::optional<int64_t> outarg_extent(NodeId base, int64_t disp, int64_t bytes) const;
  unsigned type_literal(NodeId n, size_t i) const;
  int64_t int_literal(NodeId n, size_t i) const;
  std::string_view string_literal(NodeId n, size_t i) const;
  Cond cond_literal(NodeId n, size_t i) const;
  NodeId input(NodeId n, size_t i) const;
  Reg reg(NodeId n, size_t i) const;  // the register input i is in
  Reg place_reg(NodeId user, NodeId value, RegClass cls = RegClass::Gpr) const;
  Reg xreg(NodeId n, size_t i) const { return place_reg(n, input(n, i), RegClass::Xmm); }
  Reg xresult(NodeId n) const { return place_reg(n, n, RegClass::Xmm); }
  Reg xtied(NodeId n, size_t i) const;
  bool float_literal(NodeId n, size_t i) const;  // literal i names f32 or f64
  bool in_xmm(NodeId n) const { return node(n).place.is_reg() && reg_class(reg_of(node(n).place)) == RegClass::Xmm; }
  Reg result(NodeId n) const;         // the node's own register
  Reg tied(NodeId n, size_t i) const; // result and input i share a register
  std::optional<NodeId> proj(NodeId tuple, unsigned k) const;
  Mem address(NodeId n, size_t lit, size_t in) const;
  Mem spill_slot(NodeId n, Place p) const;
  bool pushed_slot(Place p) const {
    return p.is_slot() && p.slot() < pushed_slots_.size() && pushed_slots_[p.slot()];
  }
  // ---- emitting ----
  void emit_block(uint32_t b);
  void source_position(NodeId n);
  void open_value_ranges();
  void close_value_ranges(NodeId n);
  void end_stale_value_ranges();
  void find_composites();
  std::string location_expr(Place p) const;
  void emit_node(NodeId n);
  void emit_x87(NodeId n);
  void emit_v128(NodeId n);
  void emit_vec(NodeId n);   // 16-byte vector values (x64:v128.load ... extract)
  void sse_text(NodeId n, const std::string& text);
  std::vector<uint8_t> vec_;  // x64.h v128_values: 16-byte spills and reloads
  void emit_atomic(NodeId n);
  void emit_terminator(uint32_t b, NodeId n);
  void emit_edge_moves(uint32_t from, NodeId branch, NodeId to);
  void emit_call(NodeId n);
  void emit_return(NodeId term, bool last);  // the epilogue, then ret or a sibling call's jmp
  void emit_call_instruction(NodeId n, bool indirect, int64_t al);
  void emit_v128_params();
  void emit_load(NodeId n);
  void emit_asm(NodeId n);
  std::string asm_operand_text(NodeId n, const AsmOperand& op, char modifier) const;
  bool edge_needs_moves(NodeId branch, NodeId to, size_t occurrence) const;
  std::vector<Move> edge_moves(NodeId branch, NodeId to, size_t occurrence) const;
};

// ---------------------------------------------------------------------------
// Reading the graph

void FunctionEmitter::index_graph() {
  if (!fn_.cfg || fn_.cfg->blocks.empty()) throw FormatError(Where::in(fn_.name, ""), "the function has no blocks");
  const Cfg& cfg = *fn_.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) block_index_[cfg.blocks[b].node] = b;
  projs_.assign(fn_.nodes.size(), {kNoNode, kNoNode, kNoNode, kNoNode, kNoNode});
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    const Node& nd = node(n);
    if (nd.op != Op::Proj) continue;
    int64_t k = int_literal(n, 0);
    if (nd.inputs.empty() || k < 0) fail(n, "a proj without a tuple or with index " + std::to_string(k));
    if (node(nd.inputs[0]).op == Op::X64Asm) continue;  // its outputs are in its literals' registers
    if (k >= 5) fail(n, "a proj with index " + std::to_string(k));
    projs_[nd.inputs[0]][static_cast<size_t>(k)] = n;
  }
}

NodeId FunctionEmitter::input(NodeId n, size_t i) const {
  if (i >= node(n).inputs.size()) fail(n, "missing input " + std::to_string(i));
  return node(n).inputs[i];
}

int64_t FunctionEmitter::int_literal(NodeId n, size_t i) const {
  const Node& nd = node(n);
  if (i >= nd.literals.size() || !nd.literals[i].is_int()) fail(n, "literal " + std::to_string(i) + " is not an integer");
  return static_cast<int64_t>(nd.literals[i].bits());
}

std::string_view FunctionEmitter::string_literal(NodeId n, size_t i) const {
  const Node& nd = node(n);
  if (i >= nd.literals.size() || nd.literals[i].kind() != Literal::Kind::String)
    fail(n, "literal " + std::to_string(i) + " is not a string");
  return nd.literals[i].as_string();
}

unsigned FunctionEmitter::type_literal(NodeId n, size_t i) const {
  std::optional<ValueType> t = literal_value_type(node(n).literals.size() > i ? node(n).literals[i] : Literal());
  if (!t || *t == ValueType::I1) fail(n, "literal " + std::to_string(i) + " is not an operand size (i8 ... i64, ptr)");
  return type_bits(*t);
}

Cond FunctionEmitter::cond_literal(NodeId n, size_t i) const {
  std::optional<Cond> c = parse_cond(string_literal(n, i));
  if (!c) fail(n, "unknown condition code " + quote_for_message(string_literal(n, i)));
  return *c;
}

Reg FunctionEmitter::place_reg(NodeId user, NodeId value, RegClass cls) const {
  Place p = node(value).place;
  if (!p.is_reg() || reg_class(reg_of(p)) != cls || reg_of(p) == Reg::Rsp)
    fail(user, (user == value ? std::string("the result is in ") : node_name(value) + " is read from ") +
                   (p.none() ? std::string("no place") : place_name(p)) +
                   (cls == RegClass::Xmm ? ", not an xmm register" : ", not a general register"));
  return reg_of(p);
}

Reg FunctionEmitter::xtied(NodeId n, size_t i) const {
  Reg r = xresult(n);
  if (xreg(n, i) != r) fail(n, "the result is in " + std::string(reg_name(r)) + ", not in its tied input's register " +
                                std::string(reg_name(xreg(n, i))));
  return r;
}

bool FunctionEmitter::float_literal(NodeId n, size_t i) const {
  std::optional<ValueType> t = i < node(n).literals.size() ? literal_value_type(node(n).literals[i]) : std::nullopt;
  return t && is_float(*t);
}

Reg FunctionEmitter::reg(NodeId n, size_t i) const { return place_reg(n, input(n, i)); }

Reg FunctionEmitter::result(NodeId n) const { return place_reg(n, n); }

Reg FunctionEmitter::tied(NodeId n, size_t i) const {
  Reg r = result(n);
  if (reg(n, i) != r) fail(n, "the result is in " + std::string(reg_name(r)) + ", not in its tied input's register " +
                               std::string(reg_name(reg(n, i))));
  return r;
}

std::optional<NodeId> FunctionEmitter::proj(NodeId tuple, unsigned k) const {
  NodeId p = projs_[tuple][k];
  if (p == kNoNode) return std::nullopt;
  return p;
}

Mem FunctionEmitter::spill_slot(NodeId n, Place p) const {
  if (!p.is_slot() || p.slot() >= frame_.spill_offsets.size())
    fail(n, "expected a spill slot, found " + (p.none() ? std::string("no place") : place_name(p)));
  return frame_.at(frame_.spill_offsets[p.slot()]);
}

// Literals `scale disp sym?` from `lit`, inputs `base index?` from `in`.
Mem FunctionEmitter::address(NodeId n, size_t lit, size_t in) const {
  const Node& nd = node(n);
  int64_t scale = int_literal(n, lit), disp = int_literal(n, lit + 1);
  if (!x64::is_address_scale(scale)) fail(n, "address scale is not 0, 1, 2, 4 or 8");
  if (!x64::fits_imm32(disp)) fail(n, "address displacement does not fit 32 bits");
  if (nd.literals.size() > lit + 2) {
    if (nd.inputs.size() != in) fail(n, "an address with a symbol has no base or index");
    return Mem::rip(std::string(string_literal(n, lit + 2)), static_cast<int32_t>(disp));
  }
  if (nd.inputs.size() != in + 1 + (scale != 0)) fail(n, "the address inputs do not match its scale");
  NodeId base = nd.inputs[in];
  Mem m;
  const Node& b = node(base);
  int64_t offset = 0;
  bool in_frame = true;  // else the outgoing area, at the bottom of the stack
  if (b.op == Op::X64StackSlot) {
    offset = frame_.slot_offsets[stack_slot_.at(base)];
  } else if (b.op == Op::X64ArgSlot) {
    offset = frame_.argslot_offset(0) + int_literal(base, 0);
  } else if (b.op == Op::X64OutArg) {
    offset = int_literal(base, 0);
    in_frame = false;
  } else {
    m.base = reg(n, in);
  }
  if (!m.base) {
    Mem at = in_frame ? frame_.at(static_cast<int32_t>(offset)) : Mem::at(Reg::Rsp, static_cast<int32_t>(offset));
    m.base = at.base;
    disp += at.disp;
    if (!x64::fits_imm32(disp)) fail(n, "stack address out of range");
  }
  m.disp = static_cast<int32_t>(disp);
  if (scale != 0) {
    m.index = reg(n, in + 1);
    m.scale = static_cast<uint8_t>(scale);
    if (*m.index == Reg::Rsp) fail(n, "rsp cannot be an index");
  }
  return m;
}

// The node whose value `n` copies (through x64:mov, spill, reload).
NodeId FunctionEmitter::through_copies(NodeId n) const {
  for (int guard = 0; guard < 64; ++guard) {
    OpId op = node(n).op;
    if ((op != Op::X64Mov && op != Op::X64Spill && op != Op::X64Reload) || node(n).inputs.empty()) return n;
    n = node(n).inputs[0];
  }
  return n;
}

// How far an access of `bytes` at `base + disp` reaches into the outgoing
// area, if base is (a lea of) an x64:outarg.
std::optional<int64_t> FunctionEmitter::outarg_extent(NodeId base, int64_t disp, int64_t bytes) const {
  base = through_copies(base);
  const Node& b = node(base);
  if (b.op == Op::X64Lea && b.literals.size() == 3 && b.inputs.size() == 1 && b.literals[2].is_int()) {
    disp += static_cast<int64_t>(b.literals[2].bits());
    base = b.inputs[0];
  }
  if (node(base).op != Op::X64OutArg) return std::nullopt;
  return int_literal(base, 0) + disp + bytes;
}

// The outgoing stack-argument area: every access through an outarg
// address (8 bytes each, at least), and rep movsb copies of a constant size.
uint32_t FunctionEmitter::outgoing_bytes() const {
  int64_t size = 0;
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    const Node& nd = node(n);
    if (!is_x64(nd.op)) continue;
    if (nd.op == Op::X64OutArg) size = std::max(size, int_literal(n, 0) + 8);
    if (nd.op == Op::X64Call || nd.op == Op::X64CallInd) {  // the 16-byte vectors' copies
      x64::CallVectors v = x64::call_vectors(nd);
      for (size_t r = 0; r < 8; ++r)
        if ((v.arg_mask >> r) & 1) size = std::max(size, v.args[r] + 16);
      if (v.has_result) size = std::max(size, v.result + 16);
    }
    const Constraints& c = constraints(nd.op);
    if (c.address_input >= 0 && nd.literals.size() == static_cast<size_t>(c.address_literal) + 2 &&
        nd.inputs.size() > static_cast<size_t>(c.address_input))
      if (auto at = outarg_extent(nd.inputs[c.address_input], int_literal(n, c.address_literal + 1), 8))
        size = std::max(size, *at);
    if (nd.op == Op::X64RepMovsb && nd.inputs.size() == 4) {
      NodeId count = through_copies(nd.inputs[3]);
      std::optional<int64_t> at = outarg_extent(nd.inputs[1], 0, 0);
      if (at && node(count).op == Op::X64MovI) size = std::max(size, *at + int_literal(count, 1));
      else if (at) fail(n, "rep movsb into the outgoing argument area with a count that is not a constant");
    }
  }
  if (size > (int64_t{1} << 24)) throw FormatError(Where::in(fn_.name, ""), "outgoing stack arguments over 16 MiB");
  return static_cast<uint32_t>(size);
}

FrameRequest FunctionEmitter::frame_request() const {
  FrameRequest req;
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    const Node& nd = node(n);
    // A 16-byte vector takes sN and sN+1 (x64.h v128_values).
    if (nd.place.is_slot()) req.spill_slots = std::max(req.spill_slots, nd.place.slot() + (vec_[n] ? 2 : 1));
    // x64:tls.gd calls __tls_get_addr: the stack is aligned there, no red zone.
    if (nd.op == Op::X64Call || nd.op == Op::X64CallInd || nd.op == Op::X64TlsGd)
      req.has_calls = req.has_calls || !sibling_calls_.count(n);  // a sibling call leaves the frame first
    if (nd.op == Op::X64StackSlot) {
      int64_t size = int_literal(n, 0), align = int_literal(n, 1);
      if (size < 0 || size > (int64_t{1} << 30) || align < 1 || align > 16 || (align & (align - 1)))
        fail(n, "stack slot of size " + std::to_string(size) + " aligned to " + std::to_string(align) +
                    " (sizes up to 1 GiB, alignments 1 to 16)");
      req.slots.push_back({static_cast<uint32_t>(size), static_cast<uint32_t>(align)});
    }
  }
  req.frame_pointer = x64::has_dynamic_stack(fn_);
  req.outgoing_bytes = outgoing_bytes();
  req.canary = fn_.attrs.has(kHintStackProtect);
  if (fn_.attrs.has(kHintStackRealign)) req.realign = x64::kRealignedStack;
  if (out_.options().frame_pointer) req.frame_pointer = true;
  find_pushed_saves(req);
  if (req.frame_pointer)
    for (NodeId n = 0; n < fn_.nodes.size(); ++n)
      if (node(n).place == x64::place_of(Reg::Rbp) || node(n).op == Op::X64EntryReg)
        if (node(n).op != Op::X64EntryReg || string_literal(n, 0) == "rbp")
          fail(n, "rbp holds a value in a function with a dynamic stack or under --frame-pointer, where it is the "
                  "frame pointer");
  return req;
}

// A save of a callee-saved register (ra-x64: x64:spill of an x64:entryreg
// in the entry block) whose slot holds nothing else, and whose every use is
// a restore (an x64:reload into the same register with nothing but other
// restores between it and an x64:ret), is a push in the prologue and a pop
// in the epilogue instead: the slot needs no room of its own, and a frame
// made only of saves needs no rsp adjustment.
bool FunctionEmitter::is_pushed_save(NodeId spill) const {
  const Node& sp = node(spill);
  if (sp.op != Op::X64Spill || sp.inputs.size() != 1 || !sp.place.is_slot()) return false;
  if (node(sp.inputs[0]).op != Op::X64EntryReg || !node(sp.inputs[0]).place.is_reg()) return false;
  const std::vector<NodeId>& entry = fn_.cfg->blocks[0].nodes;
  return std::find(entry.begin(), entry.end(), spill) != entry.end();
}

// The block's code is the epilogue alone: a region, phis, restores by pop
// and the x64:ret.
bool FunctionEmitter::only_returns(uint32_t b) const {
  const std::vector<NodeId>& nodes = fn_.cfg->blocks[b].nodes;
  if (nodes.empty() || node(nodes.back()).op != Op::X64Ret) return false;
  return std::all_of(nodes.begin(), nodes.end() - 1, [&](NodeId n) {
    const Node& nd = node(n);
    return nd.op == Op::Region || nd.op == Op::Phi ||
           (nd.op == Op::X64Reload && nd.inputs.size() == 1 && pushed_slot(node(nd.inputs[0]).place));
  });
}

void FunctionEmitter::find_pushed_saves(FrameRequest& req) const {
  std::vector<uint32_t> holders(req.spill_slots, 0);
  for (const Node& nd : fn_.nodes)
    if (nd.place.is_slot()) ++holders[nd.place.slot()];
  std::vector<NodeId> saves;  // in entry-block order
  for (NodeId n : fn_.cfg->blocks[0].nodes)
    if (is_pushed_save(n) && holders[node(n).place.slot()] == 1) saves.push_back(n);
  std::vector<uint8_t> ok(fn_.nodes.size(), 0);
  for (NodeId n : saves) ok[n] = 1;
  // Every use of a save must be a restore right before a return.
  for (const Block& b : fn_.cfg->blocks)
    for (size_t i = 0; i < b.nodes.size(); ++i) {
      const Node& nd = node(b.nodes[i]);
      for (NodeId in : nd.inputs) {
        if (in >= ok.size() || !ok[in]) continue;
        bool restore = nd.op == Op::X64Reload && nd.place == node(node(in).inputs[0]).place;
        for (size_t k = i + 1; restore && k < b.nodes.size(); ++k) {
          const Node& after = node(b.nodes[k]);
          if (after.op == Op::X64Ret) break;
          restore = after.op == Op::X64Reload && after.inputs.size() == 1 && is_pushed_save(after.inputs[0]);
        }
        restore = restore && node(b.nodes.back()).op == Op::X64Ret;
        if (!restore) ok[in] = 0;
      }
    }
  req.pushed_slots.assign(req.spill_slots, 0);
  for (NodeId n : saves)
    if (ok[n]) {
      req.pushed_slots[node(n).place.slot()] = 1;
      req.pushed.push_back(x64::reg_of(node(node(n).inputs[0]).place));
    }
}

// ---------------------------------------------------------------------------
// Emitting

void FunctionEmitter::run() {
  index_graph();
  vec_ = x64::v128_values(fn_);
  if (out_.options().sibling_calls) sibling_of_ = find_sibling_calls(fn_);
  for (NodeId n = 0; n < fn_.nodes.size(); ++n)
    if (node(n).op == Op::X64StackSlot) stack_slot_.emplace(n, static_cast<uint32_t>(stack_slot_.size()));
  for (const auto& [term, call] : sibling_of_) sibling_calls_.insert(call);
  FrameRequest request = frame_request();
  pushed_slots_ = request.pushed_slots;
  // A sibling call from a jump: its return block must be the epilogue alone
  // (restores by pop), which the jump then emits; else it stays a call, and
  // the frame is laid out again for it.
  size_t candidates = sibling_of_.size();
  for (const Block& block : fn_.cfg->blocks)
    if (!block.nodes.empty() && node(block.nodes.back()).op == Op::Jump && sibling_of_.count(block.nodes.back()) &&
        !only_returns(block_index_.at(block.successors[0]))) {
      sibling_calls_.erase(sibling_of_.at(block.nodes.back()));
      sibling_of_.erase(block.nodes.back());
    }
  if (sibling_of_.size() != candidates) {
    request = frame_request();
    pushed_slots_ = request.pushed_slots;
  }
  outgoing_bytes_ = (request.outgoing_bytes + 15) & ~uint32_t{15};
  try {
    frame_ = layout_frame(request);
  } catch (const std::invalid_argument& e) {  // a frame beyond 32-bit offsets: the input's limit, not a bug
    throw FormatError(Where::in(fn_.name, ""), std::string(e.what()) + " (frames up to 1 GiB)");
  }
  for (size_t b = 0; b < fn_.cfg->blocks.size(); ++b) labels_.push_back(out_.make_label());
  find_forwarding_blocks();

  out_.begin_function(fn_.name, fn_.linkage, fn_.attrs);
  out_.set_loc(node(fn_.cfg->blocks[0].node).loc);
  const uint64_t at_entry = out_.instructions_emitted();
  out_.branch_target();
  emit_prologue(out_, frame_);
  emit_v128_params();
  if (dwarf_) {
    facts_.begin = out_.function_begin();
    facts_.cfa_offset = frame_.cfa_offset();
    for (const auto& [n, index] : stack_slot_) facts_.slot_offsets.emplace(n, frame_.slot_offsets[index]);
    prologue_locs_.push_back(node(fn_.cfg->blocks[0].node).loc);
    for (const DebugVar& v : fn_.debug.vars)
      if (v.param != kDebugNone) prologue_locs_.push_back(v.loc);
    facts_.scope_runs.emplace_back(out_.here(), -1);
    values_.emplace(fn_);
    if (values_->empty()) values_.reset();
    else open_.assign(values_->bound().size(), OpenRange{}), find_composites();
  }
  if (values_) {
    // The parameters are in their argument registers from the first byte:
    // the prologue only pushes and moves rsp.
    values_->begin_block(0);
    open_value_ranges();
    for (OpenRange& r : open_)
      if (r.place) r.from = facts_.begin, r.instructions = at_entry;
  }
  for (uint32_t b = 0; b < fn_.cfg->blocks.size(); ++b) emit_block(b);
  out_.end_function();
  if (dwarf_) {
    facts_.end = out_.last_function_end();
    dwarf_->function(fn_, facts_);
  }
}

// The node's source line (set_loc); with debug information also the
// prologue_end mark (on the first code whose location is neither the
// function's nor a parameter's: the parameters are in their slots by then)
// and the lexical block the code belongs to.
void FunctionEmitter::source_position(NodeId n) {
  const Loc& loc = node(n).loc;
  // With debug information, a pure node's code is no statement start (it
  // may be scheduled early, as an address of a variable for a later call).
  bool pure = node(n).op < kNumOps && op_info(node(n).op).has(PURE);
  bool is_stmt = !dwarf_ || !pure;
  if (dwarf_ && loc.valid()) {
    if (before_body_ && !pure && std::find(prologue_locs_.begin(), prologue_locs_.end(), loc) == prologue_locs_.end()) {
      out_.mark_prologue_end();
      before_body_ = false;
    }
    // The parameters' stores are the prologue: one row, at the function's
    // line (gdb takes the end of the first row for the end of the prologue).
    if (before_body_) {
      out_.set_loc(prologue_locs_[0], true);
      return;
    }
    if (!(loc == scope_loc_)) {
      scope_loc_ = loc;
      int32_t s = innermost_scope(fn_.debug, loc);
      if (s != scope_) {
        scope_ = s;
        facts_.scope_runs.emplace_back(out_.here(), s);
      }
    }
  }
  out_.set_loc(loc, is_stmt);
}

// Location lists (value_places.h): a bound variable's range opens where
// its value is known to be in a place (at a block's start, after a node)
// and closes right before the code of a node that may write that place,
// and before every terminator (edge moves, epilogues). A range without an
// instruction in it is left out; one in a spill slot the prologue fills by
// a push (only callee-saved registers' saves) is never opened.
void FunctionEmitter::open_value_ranges() {
  for (size_t i = 0; i < open_.size(); ++i) {
    OpenRange& r = open_[i];
    if (r.place) continue;
    r.place = values_->place_of(i, [&](Place p) { return !pushed_slot(p); });
    if (!r.place) continue;
    r.from = out_.here();
    r.instructions = out_.instructions_emitted();
  }
  update_composites();
}

// Before node n's code: each range whose place n may write ends here, and
// the variable continues at once in another place that holds its value and
// that n leaves alone (a parameter copied to a callee-saved register stays
// visible through the call).
// kNoNode: the end of a block's code, where every range ends.
void FunctionEmitter::close_value_ranges(NodeId n) {
  llvm::MCSymbol* at = nullptr;
  for (size_t i = 0; i < open_.size(); ++i) {
    OpenRange& r = open_[i];
    if (!r.place || (n != kNoNode && !values_->writes(n, *r.place))) continue;
    if (!at) at = out_.here();
    if (out_.instructions_emitted() > r.instructions && values_->piece(i).size == 0)
      facts_.value_ranges[values_->bound()[i]].push_back({r.from, at, location_expr(*r.place)});
    r = OpenRange{};
    if (n == kNoNode) continue;
    r.place = values_->place_of(i, [&](Place p) { return !pushed_slot(p) && !values_->writes(n, p); });
    if (!r.place) continue;
    r.from = at;
    r.instructions = out_.instructions_emitted();
  }
  update_composites();
}

// After a node's code: a range whose place no longer holds its variable's
// current value (the node bound the variable to another value) ends here.
void FunctionEmitter::end_stale_value_ranges() {
  llvm::MCSymbol* at = nullptr;
  for (size_t i = 0; i < open_.size(); ++i) {
    OpenRange& r = open_[i];
    if (!r.place || values_->holds(i, *r.place)) continue;
    if (!at) at = out_.here();
    if (out_.instructions_emitted() > r.instructions && values_->piece(i).size == 0)
      facts_.value_ranges[values_->bound()[i]].push_back({r.from, at, location_expr(*r.place)});
    r = OpenRange{};
  }
  update_composites();
}

// Pieces (DebugBind offset and size): the entries of each variable bound
// in pieces, by offset.
void FunctionEmitter::find_composites() {
  std::map<size_t, size_t> of_var;
  for (size_t i = 0; i < values_->bound().size(); ++i) {
    if (values_->piece(i).size == 0) continue;
    auto [it, fresh] = of_var.emplace(values_->bound()[i], composites_.size());
    if (fresh) composites_.push_back(Composite{.var = values_->bound()[i]});
    composites_[it->second].entries.push_back(i);
  }
  for (Composite& c : composites_)
    std::sort(c.entries.begin(), c.entries.end(),
              [&](size_t a, size_t b) { return values_->piece(a).offset < values_->piece(b).offset; });
}

// A composite location follows its pieces' ranges: where any piece's place
// changes, the composite range open ends and one with the new pieces
// begins (none where no piece has a place). Its expression is, per piece by
// offset, the place's location and DW_OP_piece of the piece's bytes, with
// an empty DW_OP_piece (optimized out) for the bytes before a piece that no
// piece covers or for a piece without a place; dwarf.cpp adds the bytes
// after the last piece (`covered`).
void FunctionEmitter::update_composites() {
  auto uleb = [](std::string& e, uint64_t v) {
    do {
      uint8_t byte = v & 0x7F;
      v >>= 7;
      e += static_cast<char>(v ? byte | 0x80 : byte);
    } while (v);
  };
  for (Composite& c : composites_) {
    std::string expr;
    bool any = false, bad = false;
    uint64_t at = 0;
    for (size_t i : c.entries) {
      const ValuePlaces::Piece p = values_->piece(i);
      if (p.offset < at) bad = true;  // overlapping pieces (the verifier refuses them)
      if (p.offset > at) expr += static_cast<char>(0x93), uleb(expr, p.offset - at);  // DW_OP_piece, empty
      if (open_[i].place) expr += location_expr(*open_[i].place), any = true;
      expr += static_cast<char>(0x93);  // DW_OP_piece
      uleb(expr, p.size);
      at = uint64_t{p.offset} + p.size;
    }
    if (!any || bad) expr.clear();
    if (expr == c.expr) continue;
    llvm::MCSymbol* here = out_.here();
    if (!c.expr.empty() && out_.instructions_emitted() > c.instructions)
      facts_.value_ranges[c.var].push_back({c.from, here, c.expr, at});
    c.expr = std::move(expr);
    c.from = here;
    c.instructions = out_.instructions_emitted();
  }
}

// A place as a DWARF location expression: DW_OP_reg (x86-64 DWARF numbers:
// rax rdx rcx rbx rsi rdi rbp rsp, r8-r15, xmm0-xmm15 from 17), or a spill
// slot as DW_OP_fbreg from the frame base (the CFA).
std::string FunctionEmitter::location_expr(Place p) const {
  std::string expr;
  if (p.is_reg()) {
    static constexpr uint8_t kDwarfGpr[16] = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
    unsigned reg = p.reg();
    unsigned number = reg < 16 ? kDwarfGpr[reg] : 17 + (reg - 16);
    if (number < 32) {
      expr += static_cast<char>(0x50 + number);  // DW_OP_reg0 + number
    } else {
      expr += static_cast<char>(0x90);  // DW_OP_regx
      expr += static_cast<char>(number);
    }
    return expr;
  }
  int64_t off = static_cast<int64_t>(frame_.spill_offsets[p.slot()]) - frame_.cfa_offset();
  expr += static_cast<char>(0x91);  // DW_OP_fbreg
  for (bool more = true; more;) {
    uint8_t byte = off & 0x7F;
    off >>= 7;
    more = !((off == 0 && !(byte & 0x40)) || (off == -1 && (byte & 0x40)));
    expr += static_cast<char>(more ? byte | 0x80 : byte);
  }
  return expr;
}

// Branch chaining: a block whose code is one jump (phis that need no
// move on its edge, nothing else: regalloc-x64 leaves such a block where it
// removed a merge's phis) is never the target of a branch; the branch goes
// where the jump goes. The block is still emitted (a fall-through may reach
// it). A chain of such blocks that closes a cycle (an empty endless loop)
// keeps its jumps.
void FunctionEmitter::find_forwarding_blocks() {
  const std::vector<Block>& blocks = fn_.cfg->blocks;
  forward_.resize(blocks.size());
  std::vector<uint32_t> next(blocks.size());
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    next[b] = b;
    const std::vector<NodeId>& nodes = blocks[b].nodes;
    if (b == 0 || nodes.empty() || node(nodes.back()).op != Op::Jump || blocks[b].successors.size() != 1) continue;
    bool empty = std::all_of(nodes.begin(), nodes.end() - 1,
                             [&](NodeId n) { return node(n).op == Op::Region || node(n).op == Op::Phi; });
    auto to = block_index_.find(blocks[b].successors[0]);
    if (empty && to != block_index_.end() && !edge_needs_moves(nodes.back(), blocks[b].successors[0], 0))
      next[b] = to->second;
  }
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    uint32_t t = b;
    for (size_t steps = 0; next[t] != t && steps <= blocks.size(); ++steps) t = next[t];
    forward_[b] = next[t] == t ? t : b;  // no end within as many steps as blocks: a cycle
  }
}

void FunctionEmitter::emit_block(uint32_t b) {
  const Block& block = fn_.cfg->blocks[b];
  if (b != 0) out_.bind(labels_[b]);
  if (values_ && b != 0) {  // block 0's are open since the function's first byte
    values_->begin_block(b);
    open_value_ranges();
  }
  for (size_t i = 0; i < block.nodes.size(); ++i) {
    NodeId n = block.nodes[i];
    source_position(n);
    if (values_) {
      values_->before(n);  // an effect or terminator: pending bindings take effect
      open_value_ranges();
      close_value_ranges(n);
    }
    if (node(n).op < kNumOps && op_info(node(n).op).has(TERMINATOR)) {
      if (i + 1 != block.nodes.size()) fail(n, "a terminator that does not end its block");
      emit_terminator(b, n);
      if (values_) close_value_ranges(kNoNode);
      return;
    }
    emit_node(n);
    if (values_) {
      values_->after(n);
      end_stale_value_ranges();
      open_value_ranges();
    }
  }
  // No terminator: the block falls through to the next (the verifier
  // requires one, so only --no-verify gets here).
  throw FormatError(Where::in(fn_.name, block_name(b)), "the block has no terminator");
}

// Phi moves on the edge from the block ending with `branch` into block node
// `to` (its `occurrence`-th control input naming `branch`).
std::vector<Move> FunctionEmitter::edge_moves(NodeId branch, NodeId to, size_t occurrence) const {
  const Node& region = node(to);
  size_t k = 0, seen = 0;
  for (; k < region.control.size(); ++k)
    if (region.control[k] == branch && seen++ == occurrence) break;
  if (k == region.control.size()) fail(to, "no control input from " + node_name(branch));
  std::vector<Move> moves;
  for (NodeId p : fn_.cfg->blocks[block_index_.at(to)].nodes) {
    const Node& phi = node(p);
    if (phi.op != Op::Phi) continue;
    if (phi.place.none()) continue;  // memory
    if (k >= phi.inputs.size()) fail(p, "a phi with fewer inputs than its region");
    NodeId in = phi.inputs[k];
    Place from = node(in).place;
    if (node(in).op == Op::Undef || from == phi.place) continue;
    if (from.none()) fail(p, "input " + node_name(in) + " has no place");
    auto loc = [&](Place pl) {
      if (pl.is_slot()) return Location::stack(static_cast<int32_t>(pl.slot()));
      if (reg_class(reg_of(pl)) != RegClass::Gpr || reg_of(pl) == Reg::Rsp)
        fail(p, "a phi move with " + place_name(pl));
      return Location::r(reg_of(pl));
    };
    moves.push_back({loc(phi.place), loc(from)});
  }
  return moves;
}

bool FunctionEmitter::edge_needs_moves(NodeId branch, NodeId to, size_t occurrence) const {
  return !edge_moves(branch, to, occurrence).empty();
}

void FunctionEmitter::emit_edge_moves(uint32_t from, NodeId branch, NodeId to) {
  (void)from;
  std::vector<Move> moves = edge_moves(branch, to, 0);
  if (moves.empty()) return;
  auto mem = [&](const Location& l) { return spill_slot(to, Place::slot(static_cast<unsigned>(l.slot))); };
  for (const MoveOp& op : sequentialize_moves(moves, 0)) {
    if (op.kind == MoveOp::Kind::Xchg) {
      if (op.dst.is_reg() && op.src.is_reg())
        out_.xchg(64, op.dst.reg, op.src.reg);
      else
        out_.xchg_mem(64, op.dst.is_reg() ? op.dst.reg : op.src.reg, mem(op.dst.is_reg() ? op.src : op.dst));
    } else if (op.dst.is_reg() && op.src.is_reg()) {
      out_.mov(64, op.dst.reg, op.src.reg);
    } else if (op.dst.is_reg()) {
      out_.load(64, op.dst.reg, mem(op.src));
    } else {
      out_.store(64, mem(op.dst), op.src.reg);
    }
  }
}

void FunctionEmitter::emit_terminator(uint32_t b, NodeId n) {
  const Block& block = fn_.cfg->blocks[b];
  const size_t num_blocks = fn_.cfg->blocks.size();
  auto target = [&](size_t i) {
    if (i >= block.successors.size()) fail(n, "missing successor " + std::to_string(i));
    auto it = block_index_.find(block.successors[i]);
    if (it == block_index_.end()) fail(n, "successor " + node_name(block.successors[i]) + " is not a block");
    return forward_[it->second];
  };
  switch (node(n).op) {
    case Op::Jump: {
      uint32_t t = target(0);
      emit_edge_moves(b, n, block.successors[0]);
      if (sibling_of_.count(n)) {  // the call before is a sibling call: the epilogue and its jmp
        out_.set_loc(node(fn_.cfg->blocks[block_index_.at(block.successors[0])].nodes.back()).loc);
        emit_return(n, false);
        return;
      }
      if (t == b + 1) return;
      // A jump to a block that only returns is the return itself (its
      // restores are pops, its phis took their values on this edge).
      if (only_returns(t)) {
        const std::vector<NodeId>& nodes = fn_.cfg->blocks[t].nodes;
        out_.set_loc(node(nodes.back()).loc);
        emit_return(nodes.back(), false);
        return;
      }
      out_.jmp(labels_[t]);
      return;
    }
    case Op::X64Jcc: {
      uint32_t taken = target(0), other = target(1);
      bool same = block.successors[0] == block.successors[1];
      if (edge_needs_moves(n, block.successors[0], 0) || edge_needs_moves(n, block.successors[1], same ? 1 : 0))
        fail(n, "a branch edge needs phi moves (a critical edge that was not split)");
      Cond cc = cond_literal(n, 0);
      if (other == b + 1) {
        out_.jcc(cc, labels_[taken]);
      } else if (taken == b + 1) {
        out_.jcc(negate(cc), labels_[other]);
      } else {
        out_.jcc(cc, labels_[taken]);
        out_.jmp(labels_[other]);
      }
      return;
    }
    case Op::X64Ret:
      emit_return(n, b + 1 == num_blocks);
      return;
    default:
      fail(n, "no machine code for terminator '" + std::string(fn_.op_name(node(n).op)) + "'");
  }
}

// x64:alloca under -fstack-clash-protection: rsp moves down a page at a
// time, each page written (orq $0) before the next is taken, as gcc's
// dynamic allocations do. The loop needs the target in a register: r11 (r10
// when the size is in r11), borrowed with a push and given back from the
// copy the push left at the top of the new block (`-8(%rsp,size)`, inside
// the block: the size is a multiple of 16; a zero size skips it all). The
// flags are free here (no flags value lives across a node).
//   test size; je done; push t; lea 8(%rsp), t; sub size, t
//   loop: sub $4096, %rsp; cmp t, %rsp; jbe last; orq $0, (%rsp); jmp loop
//   last: mov t, %rsp; orq $0, (%rsp); mov -8(%rsp,size), t
//   done:
void FunctionEmitter::allocate_probed(Reg size) {
  Reg t = size == Reg::R11 ? Reg::R10 : Reg::R11;
  Label loop = out_.make_label(), last = out_.make_label(), done = out_.make_label();
  out_.test(64, size, size);
  out_.jcc(Cond::E, done);
  out_.push(t);
  out_.lea(64, t, Mem::at(Reg::Rsp, 8));
  out_.alu(Alu::Sub, 64, t, size);
  out_.bind(loop);
  out_.alu_imm(Alu::Sub, 64, Reg::Rsp, 4096);
  out_.alu(Alu::Cmp, 64, Reg::Rsp, t);
  out_.jcc(Cond::BE, last);
  out_.touch(Mem::at(Reg::Rsp));
  out_.jmp(loop);
  out_.bind(last);
  out_.mov(64, Reg::Rsp, t);
  out_.touch(Mem::at(Reg::Rsp));
  out_.load(64, t, Mem{Reg::Rsp, size, 1, -8, {}});
  out_.bind(done);
}

// x64:ret: the epilogue and `ret`, or for a sibling call (sibling_calls.h)
// the epilogue, which leaves rsp where it was at entry (the return address
// on top) and the callee-saved registers restored, then `mov $al, %eax` for
// a variadic callee and `jmp f@PLT` or `jmp *r`: the callee returns to our
// caller. The arguments are in their registers already (the call emitted
// nothing where it was); the epilogue writes none of them, nor the
// callee's register (not callee-saved, not r11).
void FunctionEmitter::emit_return(NodeId term, bool last) {
  auto it = sibling_of_.find(term);
  if (it == sibling_of_.end()) return emit_epilogue(out_, frame_, last);
  const NodeId call = it->second;
  const bool indirect = node(call).op == Op::X64CallInd;
  const int64_t al = int_literal(call, indirect ? 0 : 1);
  if (al > 255) fail(call, "al literal " + std::to_string(al) + " out of range");
  const Reg callee = indirect ? reg(call, 1) : Reg::Rax;
  if (indirect && al >= 0 && callee == Reg::Rax)
    fail(call, "the callee is in rax, which the variadic call's al overwrites");
  out_.set_loc(node(call).loc);
  emit_epilogue(out_, frame_, last, [&] {
    if (al >= 0) out_.mov_imm(32, Reg::Rax, al);
    if (indirect) out_.jmp_reg(callee);
    else out_.jmp_symbol(string_literal(call, 0));
  });
}

// 16-byte vector parameters (x64:v128.param, FORMAT.md section 8, "16-byte
// vectors"): each argument register's 16 bytes go to their frame slot
// right after the prologue, before the body's first instruction, which may
// reuse the register (the allocator sees no value in it); the prologue
// itself touches no xmm register.
void FunctionEmitter::emit_v128_params() {
  for (NodeId n = 0; n < fn_.nodes.size(); ++n) {
    if (node(n).op != Op::X64V128Param) continue;
    int64_t r = int_literal(n, 0);
    if (r < 0 || r >= static_cast<int64_t>(x64::kXmmArgRegs.size())) fail(n, "x64:v128.param names no xmm argument register");
    if (node(n).inputs.size() != 2 || node(node(n).inputs[1]).op != Op::X64StackSlot)
      fail(n, "x64:v128.param's address is not a stack slot");
    out_.vstore(address(n, 1, 1), x64::kXmmArgRegs[static_cast<size_t>(r)]);
  }
}

void FunctionEmitter::emit_call(NodeId n) {
  const Node& nd = node(n);
  if (sibling_calls_.count(n)) return;  // its x64:ret jumps (emit_return)
  bool indirect = nd.op == Op::X64CallInd;
  int64_t al = int_literal(n, indirect ? 0 : 1);
  if (al > 255) fail(n, "al literal " + std::to_string(al) + " out of range");
  // 16-byte vectors: loaded from the outgoing area after every argument move
  // (the allocator placed nothing of the call's in their registers), the
  // result stored there right after the call.
  x64::CallVectors vectors = x64::call_vectors(nd);
  if (!vectors.problem.empty()) fail(n, vectors.problem);
  for (size_t r = 0; r < x64::kXmmArgRegs.size(); ++r)
    if ((vectors.arg_mask >> r) & 1)
      out_.vload(x64::kXmmArgRegs[r], Mem::at(Reg::Rsp, static_cast<int32_t>(vectors.args[r])));
  emit_call_instruction(n, indirect, al);
  if (vectors.has_result) out_.vstore(Mem::at(Reg::Rsp, static_cast<int32_t>(vectors.result)), Reg::Xmm0);
}

void FunctionEmitter::emit_call_instruction(NodeId n, bool indirect, int64_t al) {
  if (indirect) {
    Reg callee = reg(n, 1);
    if (al >= 0 && callee == Reg::Rax) fail(n, "the callee is in rax, which the variadic call's al overwrites");
    if (al >= 0) out_.mov_imm(32, Reg::Rax, al);
    out_.call_reg(callee);
  } else {
    if (al >= 0) out_.mov_imm(32, Reg::Rax, al);
    out_.call(string_literal(n, 0), false);
  }
}

// x64:asm: the template with every operand written in AT&T syntax, then
// parsed and assembled by LLVM's assembler into the same stream (see
// McEmitter::inline_asm). A register operand is its register at the
// operand's size (%b %w %k %q: 8 16 32 64 bits; %h: ah bh ch dh); a memory
// operand `(%reg)`, its address's register; an immediate `$N` (%c %P: N,
// %n: -N); %a: an operand as an address (`(%reg)`, N); %= a number unique
// in the object. The allocation checker proved every input is in its
// register; an output's register is its operand literal's.
std::string FunctionEmitter::asm_operand_text(NodeId n, const AsmOperand& op, char modifier) const {
  if (op.cls == 'i') {
    switch (modifier) {
      case 'c': case 'P': case 'a': return std::to_string(op.imm);
      case 'n': return std::to_string(static_cast<int64_t>(0 - static_cast<uint64_t>(op.imm)));
      default: return "$" + std::to_string(op.imm);
    }
  }
  std::optional<Reg> r = parse_reg(op.reg);
  if (!r) fail(n, "an asm operand in '" + op.reg + "', which is no register");
  if (op.cls == 'm' || modifier == 'a') return "(%" + std::string(reg_name(*r)) + ")";
  if (reg_class(*r) == RegClass::Xmm) return "%" + std::string(reg_name(*r));
  unsigned bits = type_bits(op.type);
  switch (modifier) {
    case 'b': bits = 8; break;
    case 'w': bits = 16; break;
    case 'k': bits = 32; break;
    case 'q': bits = 64; break;
    case 'h':
      if (*r == Reg::Rax) return "%ah";
      if (*r == Reg::Rbx) return "%bh";
      if (*r == Reg::Rcx) return "%ch";
      if (*r == Reg::Rdx) return "%dh";
      fail(n, "inline assembly: %h of an operand in " + op.reg + " (only rax, rbx, rcx and rdx have a high byte)");
    case 'n': fail(n, "inline assembly: %n of a register operand");
    default: break;
  }
  return "%" + std::string(reg_name_sized(*r, bits));
}

void FunctionEmitter::emit_asm(NodeId n) {
  const Node& nd = node(n);
  std::vector<AsmOperand> ops = asm_operands(nd);
  std::string why;
  std::optional<std::vector<AsmPiece>> pieces = split_asm_template(nd.literals[kAsmTemplate].as_string(), ops.size(), why);
  if (!pieces) fail(n, "inline assembly: " + why);
  std::string text;
  std::optional<unsigned> unique;  // one number per asm statement, however many %= it has
  for (const AsmPiece& p : *pieces) {
    switch (p.kind) {
      case AsmPiece::Kind::Text: text += p.text; break;
      case AsmPiece::Kind::Unique:
        if (!unique) unique = out_.next_asm_number();
        text += std::to_string(*unique);
        break;
      case AsmPiece::Kind::Operand: text += asm_operand_text(n, ops[p.operand], p.modifier); break;
    }
  }
  std::string error;
  if (!out_.inline_asm(text, error))
    fail(n, "inline assembly does not assemble: " + error + " (the text was: " + quote_for_message(text) + ")");
}

void FunctionEmitter::emit_load(NodeId n) {
  const Node& nd = node(n);
  bool is_volatile = nd.op == Op::X64LoadV || nd.op == Op::X64LoadSXV || nd.op == Op::X64LoadZXV;
  bool extends = nd.op == Op::X64LoadSX || nd.op == Op::X64LoadZX || nd.op == Op::X64LoadSXV || nd.op == Op::X64LoadZXV;
  bool sign = nd.op == Op::X64LoadSX || nd.op == Op::X64LoadSXV;
  unsigned from = type_literal(n, 0), to = extends ? type_literal(n, 1) : from;
  Mem m = address(n, extends ? 2 : 1, 1);
  std::optional<Reg> dst;
  const bool fp = !extends && float_literal(n, 0);
  const RegClass cls = fp ? RegClass::Xmm : RegClass::Gpr;
  if (!is_volatile) {
    dst = place_reg(n, n, cls);
  } else if (std::optional<NodeId> value = proj(n, 1); value && !node(*value).place.none()) {
    dst = place_reg(n, *value, cls);
  }
  if (!dst) {  // a volatile read for nothing (float or integer): one access of its width, no register
    out_.probe(from, m);
    return;
  }
  if (fp) {
    out_.fload(from, *dst, m);
    return;
  }
  if (!extends) {
    if (from != 32 && from != 64) fail(n, "x64:load of " + std::to_string(from) + " bits (i32 or i64 only)");
    out_.load(from, *dst, m);
  } else if (!sign && from == 32) {
    out_.load(32, *dst, m);  // movl zero-extends
  } else {
    if (from >= to || from == 64 || (!sign && from > 16)) fail(n, "cannot extend " + std::to_string(from) + " bits to " + std::to_string(to));
    out_.load_ext(sign, from, to, *dst, m);
  }
}

Alu alu_of(OpId op) {
  switch (op) {
    case Op::X64Add: case Op::X64AddI: return Alu::Add;
    case Op::X64Sub: case Op::X64SubI: return Alu::Sub;
    case Op::X64And: case Op::X64AndI: return Alu::And;
    case Op::X64Or: case Op::X64OrI: return Alu::Or;
    default: return Alu::Xor;
  }
}

Shift shift_of(OpId op) {
  switch (op) {
    case Op::X64Shl: case Op::X64ShlI: return Shift::Shl;
    case Op::X64Shr: case Op::X64ShrI: return Shift::Shr;
    default: return Shift::Sar;
  }
}

int32_t imm32(int64_t v) { return static_cast<int32_t>(v); }

// Atomics (FORMAT.md section 8, "Atomics"): gcc's instructions, written in
// AT&T syntax and assembled by MC's parser as the x87 sequences are: the
// lock prefix and xchg's implied one, the cmpxchg loop with a local numeric
// label. The operands sit where the opcode table's fixed registers put
// them (the value and the result in rax; the loop's address in rdi, its
// operand in rcx, its scratch rdx).
void FunctionEmitter::emit_atomic(NodeId n) {
  const OpId op = node(n).op;
  auto run = [&](const std::string& text) {
    std::string error;
    if (!out_.inline_asm(text, error)) fail(n, "atomic sequence does not assemble: " + error + ": " + text);
  };
  if (op == Op::X64Fence) return run("lock orq $0, (%rsp)");
  unsigned bits = type_literal(n, 0);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) fail(n, "an atomic takes i8, i16, i32 or i64");
  const std::string s = bits == 8 ? "b" : bits == 16 ? "w" : bits == 32 ? "l" : "q";
  auto r = [&](Reg x, unsigned b) { return "%" + std::string(reg_name_sized(x, b)); };
  const std::string at = "(%" + std::string(reg_name(reg(n, 1))) + ")";
  auto fixed = [&](size_t i, Reg want, const char* what) {
    if (reg(n, i) != want) fail(n, std::string(what) + " must be in " + std::string(reg_name(want)));
  };
  switch (op) {
    case Op::X64AtomicXchg:
      fixed(2, Reg::Rax, "the value");
      return run("xchg" + s + " " + r(Reg::Rax, bits) + ", " + at);
    case Op::X64AtomicXadd:
      fixed(2, Reg::Rax, "the value");
      return run("lock xadd" + s + " " + r(Reg::Rax, bits) + ", " + at);
    case Op::X64AtomicCmpXchg:
      fixed(2, Reg::Rax, "the expected value");
      return run("lock cmpxchg" + s + " " + r(reg(n, 3), bits) + ", " + at);
    case Op::X64AtomicOp: {
      std::string_view what = string_literal(n, 1);
      if (what != "add" && what != "sub" && what != "and" && what != "or" && what != "xor")
        fail(n, "x64:atomic.op computes add, sub, and, or or xor");
      return run("lock " + std::string(what) + s + " " + r(reg(n, 2), bits) + ", " + at);
    }
    case Op::X64AtomicLoop: {
      std::string_view what = string_literal(n, 1);
      bool nand = what == "nand";
      if (what != "and" && what != "or" && what != "xor" && !nand)
        fail(n, "x64:atomic.loop computes and, or, xor or nand");
      fixed(1, Reg::Rdi, "the address");
      fixed(2, Reg::Rcx, "the operand");
      unsigned wide = bits == 64 ? 64 : 32;
      const std::string ws = bits == 64 ? "q" : "l";
      std::string load = bits == 8 ? "movzbl (%rdi), %eax" : bits == 16 ? "movzwl (%rdi), %eax"
                                                                          : "mov" + s + " (%rdi), " + r(Reg::Rax, bits);
      std::string text = load + "\n1:\nmov" + ws + " " + r(Reg::Rax, wide) + ", " + r(Reg::Rdx, wide) + "\n" +
                         std::string(nand ? "and" : what) + ws + " " + r(Reg::Rcx, wide) + ", " +
                         r(Reg::Rdx, wide) + "\n" + (nand ? "not" + ws + " " + r(Reg::Rdx, wide) + "\n" : std::string()) +
                         "lock cmpxchg" + s + " " + r(Reg::Rdx, bits) + ", (%rdi)\njne 1b";
      return run(text);
    }
    default: fail(n, "not an atomic instruction");
  }
}

// 16-byte vectors (FORMAT.md section 8, "16-byte vectors"): x64:v128.op is
// the instruction its literal names between two unaligned loads into the
// scratch registers xmm0 and xmm1 (which the table says it destroys) and an
// unaligned store of xmm0; the addresses are in general registers, all
// read before the store, so the destination may be either operand.
void FunctionEmitter::emit_v128(NodeId n) {
  std::string_view name = string_literal(n, 0);
  uint64_t imm = node(n).literals[1].bits();
  if (!v128_op_problem(name, imm).empty()) fail(n, v128_op_problem(name, imm));
  const V128OpInfo& op = kV128Ops[*v128_op(name)];
  auto at = [&](size_t i) { return "(%" + std::string(reg_name(reg(n, i))) + ")"; };
  bool unary = op.shape == V128Shape::Unary || op.shape == V128Shape::UnaryImm;
  std::string mnemonic(op.mnemonic), imm_text = "$" + std::to_string(imm) + ", ";
  std::string insn;
  switch (op.shape) {
    case V128Shape::Binary: insn = mnemonic + " %xmm1, %xmm0"; break;
    case V128Shape::Unary: insn = mnemonic + " %xmm0, %xmm0"; break;
    case V128Shape::UnaryImm:  // the shuffles name a source, the shifts do not
      insn = mnemonic + " " + imm_text + (mnemonic.starts_with("pshuf") ? "%xmm0, %xmm0" : "%xmm0");
      break;
    case V128Shape::BinaryImm: insn = mnemonic + " " + imm_text + "%xmm1, %xmm0"; break;
  }
  std::string text = "movdqu " + at(2) + ", %xmm0\n" + (unary ? "" : "movdqu " + at(3) + ", %xmm1\n") + insn +
                     "\nmovdqu %xmm0, " + at(1);
  std::string error;
  if (!out_.inline_asm(text, error)) fail(n, "SSE sequence does not assemble: " + error + ": " + text);
}

// 16-byte vector values in xmm registers (FORMAT.md section 8, "16-byte
// vector values"): movups to and from memory; the SSE instruction of an
// x64:v128.apply on its registers (two-address: the result in input 0's);
// a splat moves a general register's scalar into lane 0 (movd/movq) and
// copies it to every lane with pshufd ($0 for 4-byte lanes, $0x44 for
// 8-byte ones), a floating one by pshufd from its register; an extract
// reads lane 0 (movd/movq to a general register, or the xmm register
// itself). The instructions whose operands MC's table names by a form
// (pshufd, the shifts by an immediate) are assembled from text as
// x64:v128.op's are.
void FunctionEmitter::sse_text(NodeId n, const std::string& text) {
  std::string error;
  if (!out_.inline_asm(text, error)) fail(n, "SSE instruction does not assemble: " + error + ": " + text);
}

void FunctionEmitter::emit_vec(NodeId n) {
  const Node& nd = node(n);
  auto x = [](Reg r) { return "%" + std::string(reg_name(r)); };
  auto lane_type = [&]() {
    std::optional<ValueType> t = nd.literals.empty() ? std::nullopt : v128_lane_type(nd.literals[0]);
    if (!t) fail(n, "the lane type is not i32, i64, f32 or f64");
    return *t;
  };
  switch (nd.op) {
    case Op::X64V128Load: return out_.vload(xresult(n), address(n, 0, 1));
    case Op::X64V128Store: return out_.vstore(address(n, 0, 2), xreg(n, 1));
    case Op::X64V128Apply: {
      std::string_view name = string_literal(n, 0);
      uint64_t imm = int_literal(n, 1);
      if (!v128_op_problem(name, imm).empty()) fail(n, v128_op_problem(name, imm));
      const V128OpInfo& op = kV128Ops[*v128_op(name)];
      Reg d = xtied(n, 0);
      std::string mnemonic(op.mnemonic), imm_text = "$" + std::to_string(imm) + ", ";
      switch (op.shape) {
        case V128Shape::Binary: return sse_text(n, mnemonic + " " + x(xreg(n, 1)) + ", " + x(d));
        case V128Shape::Unary: return sse_text(n, mnemonic + " " + x(d) + ", " + x(d));
        case V128Shape::UnaryImm:
          return sse_text(n, mnemonic + " " + imm_text + (mnemonic.starts_with("pshuf") ? x(d) + ", " : "") + x(d));
        case V128Shape::BinaryImm: return sse_text(n, mnemonic + " " + imm_text + x(xreg(n, 1)) + ", " + x(d));
      }
      return;
    }
    case Op::X64V128Splat: {
      ValueType t = lane_type();
      Reg d = xresult(n);
      const char* sel = type_bytes(t) == 4 ? "$0, " : "$0x44, ";
      if (is_float(t)) return sse_text(n, std::string("pshufd ") + sel + x(xreg(n, 0)) + ", " + x(d));
      out_.mov_to_xmm(type_bits(t), d, reg(n, 0));
      return sse_text(n, std::string("pshufd ") + sel + x(d) + ", " + x(d));
    }
    case Op::X64V128Extract: {
      ValueType t = lane_type();
      if (is_float(t)) {
        if (xresult(n) != xreg(n, 0)) out_.fmov(xresult(n), xreg(n, 0));
        return;
      }
      return out_.mov_from_xmm(type_bits(t), result(n), xreg(n, 0));
    }
    default: fail(n, "not a 16-byte vector value instruction");
  }
}

// long double (FORMAT.md section 8, "long double"): each x64:f80 instruction
// is an x87 sequence that starts and ends with an empty x87 stack (the
// result of a call is popped by the x64:fstpt right after it), written as
// gcc writes it and assembled by MC's parser (the x87 forms are few and
// rare; AT&T's fsubrp/fdivrp are gas's, which LLVM follows). Addresses are
// in general registers; a result register is written only after the last
// read of an input register, which may share it.
void FunctionEmitter::emit_x87(NodeId n) {
  auto at = [&](size_t i, int disp = 0) {
    return (disp ? std::to_string(disp) : std::string()) + "(%" + std::string(reg_name(reg(n, i))) + ")";
  };
  auto run = [&](const std::string& text) {
    std::string error;
    if (!out_.inline_asm(text, error)) fail(n, "x87 sequence does not assemble: " + error + ": " + text);
  };
  const OpId op = node(n).op;
  if (op == Op::X64Fldt) return run("fldt " + at(1));
  if (op == Op::X64Fstpt) return run("fstpt " + at(1));
  if (op == Op::X64F80Arith) {
    std::string_view name = string_literal(n, 0);
    const char* insn = name == "add" ? "faddp" : name == "sub" ? "fsubrp" : name == "mul" ? "fmulp"
                       : name == "div" ? "fdivrp" : nullptr;
    if (!insn) fail(n, "x64:f80.arith computes add, sub, mul or div");
    return run("fldt " + at(2) + "\nfldt " + at(3) + "\n" + insn + "\nfstpt " + at(1));
  }
  if (op == Op::X64F80Unary) {
    std::string_view name = string_literal(n, 0);
    const char* insn = name == "neg" ? "fchs\n" : name == "abs" ? "fabs\n" : name == "sqrt" ? "fsqrt\n"
                       : name == "copy" ? "" : nullptr;
    if (!insn) fail(n, "x64:f80.unary computes neg, abs, sqrt or copy");
    return run("fldt " + at(2) + "\n" + insn + "fstpt " + at(1));
  }
  if (op == Op::X64F80Cmp) {  // st(0) = input 1, st(1) = input 2: flags as ucomisd in1, in2
    run("fldt " + at(2) + "\nfldt " + at(1) + "\nfucomip %st(1), %st\nfstp %st(0)");
    out_.setcc(cond_literal(n, 0), result(n));
    out_.extend(false, 8, 32, result(n), result(n));
    return;
  }
  unsigned bits = type_literal(n, 0);
  bool floating = float_literal(n, 0);
  if (op == Op::X64F80From) {  // the value goes through the destination's own bytes
    Mem dst = Mem::at(reg(n, 1));
    if (floating) {
      out_.fstore(bits, dst, xreg(n, 2));
      return run(std::string(bits == 32 ? "flds " : "fldl ") + at(1) + "\nfstpt " + at(1));
    }
    out_.store(bits, dst, reg(n, 2));
    const char* fild = bits == 16 ? "filds " : bits == 32 ? "fildl " : "fildll ";
    return run(fild + at(1) + "\nfstpt " + at(1));
  }
  // X64F80To: input 2 is a 16-byte scratch slot's address.
  Mem scratch_value = Mem::at(reg(n, 2), 8);
  if (floating) {
    run("fldt " + at(1) + "\n" + (bits == 32 ? "fstps " : "fstpl ") + at(2, 8));
    out_.fload(bits, xresult(n), scratch_value);
    return;
  }
  // The control word with the rounding control set to truncate (bits
  // 10-11), as gcc -O0 does it without SSE3's fisttp; the old one back.
  const char* fistp = bits == 16 ? "fistps " : bits == 32 ? "fistpl " : "fistpll ";
  run("fldt " + at(1) + "\nfnstcw " + at(2) + "\nfnstcw " + at(2, 2) + "\norw $3072, " + at(2, 2) + "\nfldcw " +
      at(2, 2) + "\n" + fistp + at(2, 8) + "\nfldcw " + at(2));
  if (bits == 16)
    out_.load_ext(false, 16, 32, result(n), scratch_value);
  else
    out_.load(bits, result(n), scratch_value);
}

void FunctionEmitter::emit_node(NodeId n) {
  const Node& nd = node(n);
  auto imm = [&](size_t i) {
    int64_t v = int_literal(n, i);
    if (!x64::fits_imm32(v)) fail(n, "immediate " + std::to_string(v) + " does not fit 32 bits");
    return imm32(v);
  };
  switch (nd.op) {
    // Nothing to do: control, values already in place, folded addresses.
    case Op::Start: case Op::Region: case Op::Phi: case Op::Proj: case Op::EntryMem: case Op::Undef:
    case Op::X64ArgSlot: case Op::X64OutArg: case Op::X64StackSlot:
      return;
    case Op::X64ArgReg: case Op::X64EntryReg: {
      std::optional<Reg> want = parse_reg(string_literal(n, nd.op == Op::X64ArgReg ? 1 : 0));
      if (!want || place_reg(n, n, reg_class(*want)) != *want) fail(n, "the value is not in the register its literal names");
      return;
    }
    case Op::X64MovI: {
      unsigned bits = type_literal(n, 0);
      out_.mov_imm(bits, result(n), int_literal(n, 1));
      return;
    }
    case Op::X64Lea: {
      unsigned bits = type_literal(n, 0);
      out_.lea(bits == 64 ? 64 : 32, result(n), address(n, 1, 0));
      return;
    }
    case Op::X64LoadGot:
      out_.load_got(result(n), string_literal(n, 0));
      return;
    case Op::X64TlsLe:
      out_.tls_local_exec(result(n), string_literal(n, 0));
      return;
    case Op::X64TlsIe:
      out_.tls_initial_exec(result(n), string_literal(n, 0));
      return;
    case Op::X64TlsGd:
      if (result(n) != Reg::Rax) fail(n, "x64:tls.gd's result is not in rax");
      out_.tls_general_dynamic(string_literal(n, 0));
      return;
    case Op::X64Add: case Op::X64Sub: case Op::X64And: case Op::X64Or: case Op::X64Xor:
      out_.alu(alu_of(nd.op), type_literal(n, 0), tied(n, 0), reg(n, 1));
      return;
    case Op::X64AddI: case Op::X64SubI: case Op::X64AndI: case Op::X64OrI: case Op::X64XorI:
      out_.alu_imm(alu_of(nd.op), type_literal(n, 0), tied(n, 0), imm(1));
      return;
    case Op::X64Imul:
      out_.imul(type_literal(n, 0), tied(n, 0), reg(n, 1));
      return;
    case Op::X64ImulI:
      out_.imul_imm(type_literal(n, 0), result(n), reg(n, 0), imm(1));
      return;
    case Op::X64Neg: case Op::X64Not:
      out_.unary(nd.op == Op::X64Neg ? Unary::Neg : Unary::Not, type_literal(n, 0), tied(n, 0));
      return;
    case Op::X64Shl: case Op::X64Shr: case Op::X64Sar:
      if (reg(n, 1) != Reg::Rcx) fail(n, "the shift count is not in rcx");
      out_.shift_cl(shift_of(nd.op), type_literal(n, 0), tied(n, 0));
      return;
    case Op::X64ShlI: case Op::X64ShrI: case Op::X64SarI: {
      unsigned bits = type_literal(n, 0);
      int64_t count = int_literal(n, 1);
      if (count < 0 || count >= bits) fail(n, "shift by " + std::to_string(count) + " at " + std::to_string(bits) + " bits");
      out_.shift_imm(shift_of(nd.op), bits, tied(n, 0), static_cast<unsigned>(count));
      return;
    }
    case Op::X64Mul1: case Op::X64Imul1:
      if (reg(n, 0) != Reg::Rax) fail(n, "the multiplicand is not in rax");
      out_.mul1(nd.op == Op::X64Imul1, type_literal(n, 0), reg(n, 1));
      return;
    case Op::X64Cdq:
      if (reg(n, 0) != Reg::Rax || result(n) != Reg::Rdx) fail(n, "cdq reads rax and writes rdx");
      out_.sign_extend_ax(type_literal(n, 0));
      return;
    case Op::X64Div: case Op::X64Idiv:
      if (reg(n, 0) != Reg::Rax || reg(n, 1) != Reg::Rdx) fail(n, "the dividend is not in rdx:rax");
      out_.div(nd.op == Op::X64Idiv, type_literal(n, 0), reg(n, 2));
      return;
    case Op::X64MovSX: case Op::X64MovZX: {
      unsigned from = type_literal(n, 0), to = type_literal(n, 1);
      if (from >= to) fail(n, "extension from " + std::to_string(from) + " to " + std::to_string(to) + " bits");
      out_.extend(nd.op == Op::X64MovSX, from, to, result(n), reg(n, 0));
      return;
    }
    case Op::X64Cmp:
      out_.alu(Alu::Cmp, type_literal(n, 0), reg(n, 0), reg(n, 1));
      return;
    case Op::X64Test:
      out_.test(type_literal(n, 0), reg(n, 0), reg(n, 1));
      return;
    case Op::X64CmpI:
      out_.alu_imm(Alu::Cmp, type_literal(n, 0), reg(n, 0), imm(1));
      return;
    case Op::X64TestI:
      out_.test_imm(type_literal(n, 0), reg(n, 0), imm(1));
      return;
    case Op::X64FlagsOf:
      return;  // the instruction it names, just before it, set the flags
    case Op::X64SetCC:
      out_.setcc(cond_literal(n, 0), result(n));
      return;
    case Op::X64CMov:
      out_.cmov(cond_literal(n, 0), type_literal(n, 1), tied(n, 1), reg(n, 2));
      return;
    case Op::X64Asm:
      emit_asm(n);
      return;
    case Op::X64Load: case Op::X64LoadSX: case Op::X64LoadZX:
    case Op::X64LoadV: case Op::X64LoadSXV: case Op::X64LoadZXV:
      emit_load(n);
      return;
    case Op::X64Store:
      if (float_literal(n, 0))
        out_.fstore(type_literal(n, 0), address(n, 1, 2), xreg(n, 1));
      else
        out_.store(type_literal(n, 0), address(n, 1, 2), reg(n, 1));
      return;
    // SSE2 scalar floating point
    case Op::X64FConst: {
      unsigned bits = type_literal(n, 0);
      if (nd.literals.size() < 2 || nd.literals[1].kind() != Literal::Kind::Float)
        fail(n, "x64:fconst needs a floating type and a number");
      uint64_t pattern = nd.literals[1].bits();
      out_.fconst(bits, bits == 32 ? f32_bits_of_f64_bits(pattern) : pattern, xresult(n));
      return;
    }
    case Op::X64FZero:
      out_.fzero(xresult(n));
      return;
    case Op::X64FAdd: case Op::X64FSub: case Op::X64FMul: case Op::X64FDiv: {
      FArith op = nd.op == Op::X64FAdd ? FArith::Add : nd.op == Op::X64FSub ? FArith::Sub
                : nd.op == Op::X64FMul ? FArith::Mul : FArith::Div;
      out_.farith(op, type_literal(n, 0), xtied(n, 0), xreg(n, 1));
      return;
    }
    case Op::X64FSqrt:
      out_.fsqrt(type_literal(n, 0), xresult(n), xreg(n, 0));
      return;
    // A load folded into its user: the register operand is input 1 (tied
    // but for sqrt and cvtsi2f), the address after it.
    case Op::X64FAddM: case Op::X64FSubM: case Op::X64FMulM: case Op::X64FDivM: {
      FArith op = nd.op == Op::X64FAddM ? FArith::Add : nd.op == Op::X64FSubM ? FArith::Sub
                : nd.op == Op::X64FMulM ? FArith::Mul : FArith::Div;
      out_.farith_mem(op, type_literal(n, 0), xtied(n, 1), address(n, 1, 2));
      return;
    }
    case Op::X64FSqrtM:
      out_.fsqrt_mem(type_literal(n, 0), xresult(n), address(n, 1, 1));
      return;
    case Op::X64CvtSI2FM:
      out_.cvtsi2f_mem(type_literal(n, 0), type_literal(n, 1), xresult(n), address(n, 2, 1));
      return;
    case Op::X64AddM: case Op::X64SubM: case Op::X64AndM: case Op::X64OrM: case Op::X64XorM:
      out_.alu_mem(alu_of(x64::register_form(nd.op)), type_literal(n, 0), tied(n, 1), address(n, 1, 2));
      return;
    case Op::X64ImulM:
      out_.imul_mem(type_literal(n, 0), tied(n, 1), address(n, 1, 2));
      return;
    case Op::X64CmpM:
      out_.alu_mem(Alu::Cmp, type_literal(n, 0), reg(n, 1), address(n, 1, 2));
      return;
    case Op::X64CmpMI:
      out_.cmp_mem_imm(type_literal(n, 0), address(n, 2, 1), imm(1));
      return;
    case Op::X64UcomisM:
      out_.ucomis_mem(type_literal(n, 0), xreg(n, 1), address(n, 1, 2));
      return;
    case Op::X64FXor: case Op::X64FAnd:
      out_.fbitwise(nd.op == Op::X64FXor, xtied(n, 0), xreg(n, 1));
      return;
    case Op::X64Ucomis:
      out_.ucomis(type_literal(n, 0), xreg(n, 0), xreg(n, 1));
      return;
    case Op::X64CvtSI2F:
      out_.cvtsi2f(type_literal(n, 0), type_literal(n, 1), xresult(n), reg(n, 0));
      return;
    case Op::X64CvtTF2SI:
      out_.cvttf2si(type_literal(n, 0), type_literal(n, 1), result(n), xreg(n, 0));
      return;
    case Op::X64CvtF2F:
      if (type_literal(n, 0) == type_literal(n, 1)) fail(n, "cvtf2f converts f32 to f64 or f64 to f32");
      out_.cvtf2f(type_literal(n, 0), xresult(n), xreg(n, 0));
      return;
    case Op::X64F80Arith:
    case Op::X64F80Unary:
    case Op::X64F80Cmp:
    case Op::X64F80From:
    case Op::X64F80To:
    case Op::X64Fldt:
    case Op::X64Fstpt: return emit_x87(n);
    case Op::X64V128Op: return emit_v128(n);
    case Op::X64V128Load: case Op::X64V128Store: case Op::X64V128Apply: case Op::X64V128Splat:
    case Op::X64V128Extract: return emit_vec(n);
    case Op::X64V128Param: return;  // stored by the prologue (emit_v128_params)
    case Op::X64V128Ret: return out_.vload(Reg::Xmm0, address(n, 0, 1));
    case Op::X64AtomicXchg:
    case Op::X64AtomicXadd:
    case Op::X64AtomicCmpXchg:
    case Op::X64AtomicLoop:
    case Op::X64AtomicOp:
    case Op::X64Fence: return emit_atomic(n);
    case Op::X64Bitcast: {
      unsigned bits = type_literal(n, 0);
      if (bits != type_literal(n, 1) || float_literal(n, 0) == float_literal(n, 1))
        fail(n, "x64:bitcast joins f32 and i32, or f64 and i64");
      if (float_literal(n, 0))
        out_.mov_from_xmm(bits, result(n), xreg(n, 0));
      else
        out_.mov_to_xmm(bits, xresult(n), reg(n, 0));
      return;
    }
    case Op::X64StoreI:
      out_.store_imm(type_literal(n, 0), address(n, 2, 1), imm(1));
      return;
    case Op::X64Alloca: {  // the block goes above the outgoing area (frame.h)
      if (out_.options().stack_clash) allocate_probed(reg(n, 1));
      else out_.alu(Alu::Sub, 64, Reg::Rsp, reg(n, 1));
      if (frame_.realign) out_.alu_imm(Alu::And, 64, Reg::Rsp, -static_cast<int32_t>(frame_.realign));
      if (std::optional<NodeId> p = proj(n, 1))
        out_.lea(64, result(*p), Mem::at(Reg::Rsp, static_cast<int32_t>(outgoing_bytes_)));
      return;
    }
    case Op::X64StackSave:
      if (std::optional<NodeId> p = proj(n, 1)) out_.mov(64, result(*p), Reg::Rsp);
      return;
    case Op::X64StackRestore:
      out_.mov(64, Reg::Rsp, reg(n, 1));
      return;
    case Op::X64FrameAddress:
      out_.mov(64, result(n), Reg::Rbp);
      return;
    case Op::X64ReturnAddress:
      out_.load(64, result(n), Mem::at(Reg::Rbp, 8));
      return;
    case Op::X64RepMovsb:
      if (reg(n, 1) != Reg::Rdi || reg(n, 2) != Reg::Rsi || reg(n, 3) != Reg::Rcx)
        fail(n, "rep movsb takes rdi, rsi, rcx");
      out_.rep_movsb();
      return;
    case Op::X64Call: case Op::X64CallInd:
      emit_call(n);
      return;
    case Op::X64Mov: {
      if (in_xmm(n)) {
        Reg dst = xresult(n), src = xreg(n, 0);
        if (dst != src) out_.fmov(dst, src);
        return;
      }
      Reg dst = result(n), src = reg(n, 0);
      if (dst != src) out_.mov(64, dst, src);
      return;
    }
    case Op::X64Spill: {
      if (vec_[n]) {  // a 16-byte vector: sN and sN+1 (x64.h v128_values)
        out_.vstore(spill_slot(n, nd.place), xreg(n, 0));
        return;
      }
      if (in_xmm(input(n, 0))) {  // the low 64 bits: an f64, or an f32 and what is above it
        out_.fstore(64, spill_slot(n, nd.place), xreg(n, 0));
        return;
      }
      if (pushed_slot(nd.place)) return;  // the prologue pushed it
      out_.store(64, spill_slot(n, nd.place), reg(n, 0));
      // The save of a callee-saved register: tell the unwinder where it is.
      NodeId in = input(n, 0);
      if (node(in).op == Op::X64EntryReg) {
        const Block& entry = fn_.cfg->blocks[0];
        if (std::find(entry.nodes.begin(), entry.nodes.end(), n) != entry.nodes.end())
          out_.cfi_offset(reg(n, 0), frame_.spill_offsets[nd.place.slot()] - frame_.cfa_offset());
      }
      return;
    }
    case Op::X64Reload:
      if (vec_[n]) {
        out_.vload(xresult(n), spill_slot(n, node(input(n, 0)).place));
        return;
      }
      if (in_xmm(n)) {
        out_.fload(64, xresult(n), spill_slot(n, node(input(n, 0)).place));
        return;
      }
      if (pushed_slot(node(input(n, 0)).place)) return;  // the epilogue pops it
      out_.load(64, result(n), spill_slot(n, node(input(n, 0)).place));
      return;
    case Op::X64Xchg: {
      Reg a = reg(n, 0), b = reg(n, 1);
      if (a != b) out_.xchg(64, a, b);
      return;
    }
    default:
      fail(n, "no machine code for '" + std::string(fn_.op_name(nd.op)) + "'");
  }
}

}  // namespace

void emit_function(McEmitter& out, const Function& fn, DwarfWriter* dwarf) {
  FunctionEmitter(out, fn, dwarf).run();
}

}  // namespace pl::x64
